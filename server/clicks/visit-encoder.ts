import { dayOf } from '../../core/rules/clicks.js';
import { createStringTable, type EncodedVisits } from './encoded-visits.js';
import { NO_STRING, type RawVisitBatch } from './raw-visit-columns.js';
import { countryCode, USER_AGENT_KEPT, type VisitFacts } from './visit-parser.js';

const FIELDS = 8;
const NOT_YET = -2;

/** A beat's visits of one UTC day: its clicks (bots apart) per code key, and the visits encoded. */
export interface EncodedDay {
  day: number;
  counts: Map<string, number>;
  visits: EncodedVisits;
}

/**
 * A beat's clicks with a visit as `EncodedVisits`, one per UTC day (nearly always one), with the
 * day's counts of clicks that were not bots. Each distinct User-Agent, referrer and country value
 * is parsed once (the beat's columns share them), then every click is a few integer copies: no
 * object is made per click. Gives what parsing each click into a `VisitRow` and encoding the rows
 * gave: a private visit (DNT/GPC) keeps its time and bot flag alone, and the local database is
 * asked for a country only when the header gave none.
 */
export function encodeRawVisits(raw: RawVisitBatch, facts: VisitFacts): EncodedDay[] {
  const { strings, index } = createStringTable();
  // What each distinct raw string becomes, worked out when first met (NOT_YET until then).
  const size = raw.strings.length;
  const codeOf = new Int32Array(size).fill(NOT_YET);
  const hostOf = new Int32Array(size).fill(NOT_YET);
  const countryOf = new Int32Array(size).fill(NOT_YET);
  const agentOf = new Int32Array(size * 4).fill(NOT_YET); // User-Agent kept, browser, OS, device
  const botOf = new Uint8Array(size);
  const noAgent = facts.agentOf(null);
  let direct = NOT_YET; // the referrer of a click without one

  const n = raw.length;
  const fields = new Int32Array(n * FIELDS);
  const at = new Float64Array(n);
  const days: Array<{ day: number; from: number; counts: Map<string, number> }> = [];
  let today: (typeof days)[number] | undefined;
  for (let i = 0; i < n; i++) {
    const ms = raw.times[i] as number;
    const day = dayOf(ms);
    if (today?.day !== day) {
      today = { day, from: i, counts: new Map() };
      days.push(today);
    }
    at[i] = Math.floor(ms / 1000);
    const o = i * FIELDS;
    const code = raw.codeKeys[i] as number;
    if (codeOf[code] === NOT_YET) codeOf[code] = index(raw.strings[code] as string);
    fields[o] = codeOf[code] as number;
    const agent = raw.agents[i] as number;
    let bot: boolean;
    if (agent === NO_STRING) bot = noAgent.bot;
    else {
      if (agentOf[agent * 4] === NOT_YET) {
        const kept = (raw.strings[agent] as string).slice(0, USER_AGENT_KEPT);
        const parsed = facts.agentOf(kept);
        agentOf[agent * 4] = index(kept);
        agentOf[agent * 4 + 1] = index(parsed.browser);
        agentOf[agent * 4 + 2] = index(parsed.os);
        agentOf[agent * 4 + 3] = index(parsed.device);
        botOf[agent] = parsed.bot ? 1 : 0;
      }
      bot = botOf[agent] === 1;
    }
    fields[o + 7] = bot ? 1 : 0;
    if (!bot) today.counts.set(raw.strings[code] as string, (today.counts.get(raw.strings[code] as string) ?? 0) + 1);
    if (raw.privates[i] === 1) continue; // time and bot alone
    const referer = raw.referers[i] as number;
    if (referer === NO_STRING) {
      if (direct === NOT_YET) direct = index(facts.hostOf(undefined));
      fields[o + 1] = direct;
    } else {
      if (hostOf[referer] === NOT_YET) hostOf[referer] = index(facts.hostOf(raw.strings[referer]));
      fields[o + 1] = hostOf[referer] as number;
    }
    const header = raw.countries[i] as number;
    let country = 0;
    if (header !== NO_STRING) {
      if (countryOf[header] === NOT_YET) countryOf[header] = index(countryCode(raw.strings[header]));
      country = countryOf[header] as number;
    }
    if (country === 0 && facts.countryOfAddress !== undefined) {
      const address = raw.addresses.get(i);
      if (address?.peer !== undefined) country = index(facts.countryOfAddress(address.peer, address.forwardedFor));
    }
    fields[o + 2] = country;
    if (agent === NO_STRING) continue; // no User-Agent: none of its four fields either
    fields[o + 3] = agentOf[agent * 4] as number;
    fields[o + 4] = agentOf[agent * 4 + 1] as number;
    fields[o + 5] = agentOf[agent * 4 + 2] as number;
    fields[o + 6] = agentOf[agent * 4 + 3] as number;
  }
  const [only] = days;
  if (days.length === 1 && only !== undefined)
    return [{ day: only.day, counts: only.counts, visits: { strings, fields, at } }];
  // A beat across midnight: a copy per day (a view would carry the whole buffer to the writer thread).
  return days.map(({ day, from, counts }, d) => {
    const to = days[d + 1]?.from ?? n;
    return {
      day,
      counts,
      visits: { strings, fields: fields.slice(from * FIELDS, to * FIELDS), at: at.slice(from, to) },
    };
  });
}
