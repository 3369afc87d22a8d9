import type { VisitRow } from '../../core/management/visits/visits.js';
import { type EncodedVisits, encodeVisits } from './encoded-visits.js';

/** A stored row holds at most this many visits; a visit's id is its row's id × this + its place in the row. */
export const VISITS_PER_ROW = 4096;
/** A row's visits span at most this many seconds, so a page before a time reads rows from a bounded range. */
export const ROW_SPAN_SECONDS = 60;
/** How many numbers a stored row holds per visit (see `PackedVisitRow`). */
export const STORED_FIELDS = 8;
/** The daily counts' key of bot visits (counted under no dimension). */
export const BOTS_KEY = 'bots';

/**
 * One link's visits of one batch, as one stored row: writing a second's visits of a busy link as
 * one row rather than one each is what keeps visits from costing redirects (a row insert costs
 * more than the rest of a visit). `visits` is JSON: `s`, the row's distinct strings, and `v`,
 * eight numbers per visit: time (epoch seconds), referrer, country, User-Agent, browser, OS and
 * device as indexes into `s` (-1: none), then 1 for a bot.
 */
export interface PackedVisitRow {
  codeKey: string;
  firstAt: number;
  lastAt: number;
  count: number;
  visits: string;
}

/**
 * A link's visits of one UTC day in a batch, added up: `names[i]` (`dimension:name`, or `bots`
 * for bot visits, which count under no dimension) had `counts[i]` visits. Stored as one row per
 * link and day, a JSON object of the same (see `dayCountsJson`), merged into by each batch.
 * Arrays rather than an object: an object with a property per name cost more than the rest.
 */
export interface DayCounts {
  codeKey: string;
  day: number;
  names: string[];
  counts: number[];
}

/** A batch's counts of one link and day as the JSON object a store keeps (`name` → visits). */
export function dayCountsJson({ names, counts }: Pick<DayCounts, 'names' | 'counts'>): string {
  let text = '{';
  for (let i = 0; i < names.length; i++) text += `${i === 0 ? '' : ','}${JSON.stringify(names[i])}:${counts[i]}`;
  return `${text}}`;
}

/** A batch's visits as stored rows and daily counts (see `packEncodedVisits`). */
export function packVisits(visits: readonly VisitRow[]): { rows: PackedVisitRow[]; days: DayCounts[] } {
  return packEncodedVisits(encodeVisits(visits));
}

/**
 * Encoded visits as stored rows (one per link, split past `VISITS_PER_ROW` visits or
 * `ROW_SPAN_SECONDS`) and daily counts, sorted by code key and day so that writers sharing a
 * database take row locks in one order (see `visitPackerOf`).
 */
export function packEncodedVisits(visits: EncodedVisits): { rows: PackedVisitRow[]; days: DayCounts[] } {
  const packer = visitPackerOf(visits);
  const rows: PackedVisitRow[] = [];
  const days: DayCounts[] = [];
  for (let link = 0; link < packer.codeKeys.length; link++) packer.pack(link, rows, days);
  return { rows, days };
}

/** Packs a batch's visits link by link (see `visitPackerOf`). */
export interface VisitPacker {
  /** The code keys the visits are of, each once, in code-key order. */
  codeKeys: string[];
  /** Appends the stored rows of `codeKeys[link]`'s visits to `rows`, then its daily counts (by day) to `days`. */
  pack(link: number, rows: PackedVisitRow[], days: DayCounts[]): void;
}

/**
 * Packs encoded visits one link at a time, in whatever order the caller writes them: the SQLite
 * writer packs each link's visits just before writing them, so the rows of a batch of tens of
 * thousands of links never all live at once (they did, long enough to be promoted to V8's old
 * generation: copying and collecting them cost the writer about as much as the packing itself).
 * Everything is counted and keyed by integers: a `dimension:name` string made per visit cost more
 * than the rest of the packing. It refers to nothing outside itself (its constants are repeated
 * here), because the SQLite writer thread runs its source text.
 */
export function visitPackerOf({ strings, fields, at }: EncodedVisits): VisitPacker {
  const PER_ROW = 4096; // VISITS_PER_ROW
  const SPAN = 60; // ROW_SPAN_SECONDS
  const DIMENSIONS: Array<[string, number]> = [
    ['referrer', 1],
    ['country', 2],
    ['browser', 4],
    ['os', 5],
    ['device', 6],
  ];
  const size = strings.length;
  const visitCount = at.length;
  // No name counts as `unknown`, as a name spelled so does: one key for both.
  const unknown = Math.max(0, strings.indexOf('unknown'));
  // The visits grouped by code key (a counting sort on its string index), in batch order within.
  const starts = new Int32Array(size + 1);
  for (let n = 0; n < visitCount; n++) (starts[(fields[n * 8] as number) + 1] as number)++;
  for (let k = 0; k < size; k++) starts[k + 1] = (starts[k + 1] as number) + (starts[k] as number);
  const order = new Int32Array(visitCount);
  const next = starts.slice(0, size);
  for (let n = 0; n < visitCount; n++) {
    const key = fields[n * 8] as number;
    order[next[key] as number] = n;
    next[key] = (next[key] as number) + 1;
  }
  // Scratch reused across links: a string's index in the current row's own list (stamped by row),
  // and visits per dimension and name (listed in `touched` so they are cleared after each day).
  const localIndex = new Int32Array(size);
  const localStamp = new Int32Array(size);
  let stamp = 0;
  const tally = new Int32Array(DIMENSIONS.length * size);
  const touched: number[] = [];
  const keyText: Array<string | undefined> = [];
  const keys: number[] = [];
  for (let k = 0; k < size; k++) if ((starts[k + 1] as number) > (starts[k] as number)) keys.push(k);
  keys.sort((a, b) => {
    const x = strings[a] as string;
    const y = strings[b] as string;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const pack = (link: number, rows: PackedVisitRow[], dayCounts: DayCounts[]) => {
    const key = keys[link] as number;
    const codeKey = strings[key] as string;
    const from = starts[key] as number;
    const to = starts[key + 1] as number;
    // Rows: the link's visits in batch order, a new row past the size or span.
    let first = from;
    while (first < to) {
      let firstAt = at[order[first] as number] as number;
      let lastAt = firstAt;
      let end = first + 1;
      while (end < to && end - first < PER_ROW) {
        const time = at[order[end] as number] as number;
        if (Math.max(lastAt, time) - Math.min(firstAt, time) > SPAN) break;
        if (time < firstAt) firstAt = time;
        if (time > lastAt) lastAt = time;
        end++;
      }
      stamp++;
      const own: Array<string | null> = [];
      const v: number[] = [];
      for (let i = first; i < end; i++) {
        const n = order[i] as number;
        const o = n * 8;
        v.push(at[n] as number);
        for (let f = o + 1; f < o + 7; f++) {
          const index = fields[f] as number;
          if (index === 0) v.push(-1);
          else {
            if (localStamp[index] !== stamp) {
              localStamp[index] = stamp;
              localIndex[index] = own.push(strings[index] as string) - 1;
            }
            v.push(localIndex[index] as number);
          }
        }
        v.push(fields[o + 7] as number);
      }
      rows.push({
        codeKey,
        firstAt,
        lastAt,
        count: end - first,
        visits: `{"s":${JSON.stringify(own)},"v":[${v.join(',')}]}`,
      });
      first = end;
    }
    // Daily counts: per day of the link's visits (nearly always one), by dimension and name.
    const days: number[] = [];
    for (let i = from; i < to; i++) {
      const day = Math.floor((at[order[i] as number] as number) / 86_400);
      if (!days.includes(day)) days.push(day);
    }
    days.sort((a, b) => a - b);
    for (const day of days) {
      let bots = 0;
      for (let i = from; i < to; i++) {
        const n = order[i] as number;
        if (Math.floor((at[n] as number) / 86_400) !== day) continue;
        const o = n * 8;
        if (fields[o + 7] === 1) {
          bots++;
          continue;
        }
        for (let d = 0; d < DIMENSIONS.length; d++) {
          const name = fields[o + (DIMENSIONS[d] as [string, number])[1]] as number;
          const slot = d * size + (name === 0 ? unknown : name);
          if (tally[slot] === 0) touched.push(slot);
          tally[slot] = (tally[slot] as number) + 1;
        }
      }
      const names: string[] = [];
      const counts: number[] = [];
      if (bots > 0) {
        names.push('bots');
        counts.push(bots);
      }
      for (const slot of touched) {
        let text = keyText[slot];
        if (text === undefined) {
          const dimension = (DIMENSIONS[Math.floor(slot / size)] as [string, number])[0];
          text = `${dimension}:${strings[slot % size] ?? 'unknown'}`;
          keyText[slot] = text;
        }
        names.push(text);
        counts.push(tally[slot] as number);
        tally[slot] = 0;
      }
      touched.length = 0;
      dayCounts.push({ codeKey, day, names, counts });
    }
  };
  return { codeKeys: keys.map((key) => strings[key] as string), pack };
}
