import type { VisitRow } from '../../core/management/visits/visits.js';
import type { ClickBatch } from '../../core/rules/clicks.js';

const FIELDS = 8;

/**
 * A batch's visits with every distinct string once: per visit eight integers (code key,
 * referrer, country, User-Agent, browser, OS, device as indexes into `strings`, 0 for none; then
 * bot as 0 or 1) and its time. Cheap to make on the event loop and to copy to a thread.
 */
export interface EncodedVisits {
  strings: Array<string | null>;
  fields: Int32Array;
  at: Float64Array;
}

/**
 * The distinct strings of an `EncodedVisits` as they are met: `index` gives a string's place in
 * `strings` (added the first time), 0 for none.
 */
export function createStringTable() {
  const strings: Array<string | null> = [null];
  const indexOf = new Map<string, number>();
  const index = (value: string | null): number => {
    if (value === null) return 0;
    let at = indexOf.get(value);
    if (at === undefined) {
      at = strings.push(value) - 1;
      indexOf.set(value, at);
    }
    return at;
  };
  return { strings, index };
}

/** The batch's visits as `EncodedVisits`: a lookup per string of a known hash, no parsing. */
export function encodeVisits(visits: readonly VisitRow[]): EncodedVisits {
  const { strings, index } = createStringTable();
  const fields = new Int32Array(visits.length * FIELDS);
  const at = new Float64Array(visits.length);
  for (let n = 0; n < visits.length; n++) {
    const visit = visits[n] as VisitRow;
    const o = n * FIELDS;
    fields[o] = index(visit.codeKey);
    fields[o + 1] = index(visit.referrer);
    fields[o + 2] = index(visit.country);
    fields[o + 3] = index(visit.userAgent);
    fields[o + 4] = index(visit.browser);
    fields[o + 5] = index(visit.os);
    fields[o + 6] = index(visit.device);
    fields[o + 7] = visit.bot ? 1 : 0;
    at[n] = visit.at;
  }
  return { strings, fields, at };
}

/**
 * A click batch as the server's click counter hands it to a store: its visits already encoded
 * (`encodedVisits`, in place of `visits`), as they were kept since the click. The SQLite and
 * PostgreSQL stores take this form when it is there; `visits` stays the form of the core's
 * store contract (and the memory store), made with `withVisitRows`.
 */
export type CountedClickBatch = ClickBatch & { encodedVisits?: EncodedVisits };

/** Encoded visits as rows again (the memory store and tests; the server's stores never need to). */
export function decodeVisits({ strings, fields, at }: EncodedVisits): VisitRow[] {
  const rows: VisitRow[] = [];
  for (let n = 0; n < at.length; n++) {
    const o = n * FIELDS;
    const text = (k: number) => strings[fields[o + k] as number] ?? null;
    rows.push({
      codeKey: text(0) as string,
      at: at[n] as number,
      referrer: text(1),
      country: text(2),
      userAgent: text(3),
      browser: text(4),
      os: text(5),
      device: text(6),
      bot: fields[o + 7] === 1,
    });
  }
  return rows;
}

/** The batch with its encoded visits as `visits` rows, for a store that takes only those. */
export function withVisitRows({ encodedVisits, ...batch }: CountedClickBatch): ClickBatch {
  return encodedVisits === undefined ? batch : { ...batch, visits: decodeVisits(encodedVisits) };
}
