import { visitDetails } from '../../core/rules/visit-rows.js';
import type { Link } from '../../core/store/link-store.js';
import { clickedLink } from '../../core/webhooks/webhook-payloads.js';
import type { RawVisitBatch } from '../clicks/raw-visit-columns.js';
import { encodeRawVisits } from '../clicks/visit-encoder.js';
import type { VisitFacts } from '../clicks/visit-parser.js';

/** Integers per encoded visit (see `EncodedVisits`). */
const FIELDS = 8;

/**
 * A beat's clicks as the objects of `link.clicked`'s `data.clicks`, one JSON text each
 * (`undefined` for a click whose link is gone), in the order they came. The visits are encoded
 * as the click counter stores them (each distinct User-Agent, referrer and country of the beat
 * parsed once, `visit-encoder.ts`), and each click's text is joined of parts made once per link
 * and once per distinct visit: a busy second's thousands of clicks make no object each and are
 * not handed to `JSON.stringify` one by one. Without `facts` (`VISITS=off`), and for a visit that
 * asked not to be tracked, a click carries its time alone.
 */
export function clickJsonTexts(
  raw: RawVisitBatch,
  baseUrl: string,
  facts: VisitFacts | undefined,
  linkOf: (codeIndex: number) => Link | undefined,
): Array<string | undefined> {
  const heads = new Map<number, string>();
  const tails = new Map<string, string>();
  const texts = new Array<string | undefined>(raw.length);
  const textOf = (i: number, tail: string) => {
    const codeIndex = raw.codeKeys[i] as number;
    let head = heads.get(codeIndex);
    if (head === undefined) {
      const link = linkOf(codeIndex);
      if (link === undefined) return undefined;
      head = JSON.stringify(clickedLink(link, baseUrl)).slice(0, -1);
      heads.set(codeIndex, head);
    }
    return `${head},"clicked_at":"${new Date(raw.times[i] as number).toISOString()}"${tail}`;
  };
  if (facts === undefined) {
    for (let i = 0; i < raw.length; i++) texts[i] = textOf(i, '}');
    return texts;
  }
  let i = 0;
  for (const { visits } of encodeRawVisits(raw, facts)) {
    const { strings, fields } = visits;
    for (let v = 0; v < visits.at.length; v++, i++) {
      if (raw.privates[i] === 1) {
        texts[i] = textOf(i, '}');
        continue;
      }
      const o = v * FIELDS;
      // Referrer, country, browser, OS, device and bot: the User-Agent itself is not told.
      const key = `${fields[o + 1]},${fields[o + 2]},${fields[o + 4]},${fields[o + 5]},${fields[o + 6]},${fields[o + 7]}`;
      let tail = tails.get(key);
      if (tail === undefined) {
        const told = visitDetails({
          referrer: strings[fields[o + 1] as number] ?? null,
          country: strings[fields[o + 2] as number] ?? null,
          browser: strings[fields[o + 4] as number] ?? null,
          os: strings[fields[o + 5] as number] ?? null,
          device: strings[fields[o + 6] as number] ?? null,
          bot: fields[o + 7] === 1,
        });
        tail = `,${JSON.stringify(told).slice(1)}`;
        tails.set(key, tail);
      }
      texts[i] = textOf(i, tail);
    }
  }
  return texts;
}
