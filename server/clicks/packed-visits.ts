import {
  type StoredVisit,
  UNKNOWN,
  VISIT_DIMENSIONS,
  type VisitDimension,
  type VisitRow,
  type VisitTallies,
} from '../../core/management/visits/visits.js';

/** A stored row holds at most this many visits; a visit's id is its row's id × this + its place in the row. */
export const VISITS_PER_ROW = 4096;
/** A row's visits span at most this many seconds, so a page before a time reads rows from a bounded range. */
export const ROW_SPAN_SECONDS = 60;
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
 * A link's visits of one UTC day in a batch, added up: `dimension:name` → visits (bots under
 * `bots` alone). Stored as one row per link and day, merged into by each batch.
 */
export interface DayCounts {
  codeKey: string;
  day: number;
  counts: Record<string, number>;
}

const FIELDS = 8;
const STRING_FIELDS = ['referrer', 'country', 'userAgent', 'browser', 'os', 'device'] as const;

interface OpenRow {
  row: PackedVisitRow;
  strings: Array<string | null>;
  indexOf: Map<string | null, number>;
  fields: number[];
}

/**
 * A batch's visits as stored rows (one per link, split past `VISITS_PER_ROW` visits or
 * `ROW_SPAN_SECONDS`) and daily counts, sorted by code key and day so that writers sharing a
 * database take row locks in one order.
 */
export function packVisits(visits: readonly VisitRow[]): { rows: PackedVisitRow[]; days: DayCounts[] } {
  const open = new Map<string, OpenRow>();
  const rows: OpenRow[] = [];
  const days = new Map<string, Map<number, Record<string, number>>>();
  for (const visit of visits) {
    const { codeKey, at } = visit;
    let current = open.get(codeKey);
    if (
      current === undefined ||
      current.row.count === VISITS_PER_ROW ||
      Math.max(current.row.lastAt, at) - Math.min(current.row.firstAt, at) > ROW_SPAN_SECONDS
    ) {
      current = {
        row: { codeKey, firstAt: at, lastAt: at, count: 0, visits: '' },
        strings: [],
        indexOf: new Map(),
        fields: [],
      };
      open.set(codeKey, current);
      rows.push(current);
    }
    const { row, strings, indexOf, fields } = current;
    row.count++;
    if (at < row.firstAt) row.firstAt = at;
    if (at > row.lastAt) row.lastAt = at;
    fields.push(at);
    for (const field of STRING_FIELDS) {
      const value = visit[field];
      if (value === null) {
        fields.push(-1);
        continue;
      }
      let index = indexOf.get(value);
      if (index === undefined) {
        index = strings.push(value) - 1;
        indexOf.set(value, index);
      }
      fields.push(index);
    }
    fields.push(visit.bot ? 1 : 0);

    let linkDays = days.get(codeKey);
    if (linkDays === undefined) {
      linkDays = new Map();
      days.set(codeKey, linkDays);
    }
    const day = Math.floor(at / 86_400);
    let counts = linkDays.get(day);
    if (counts === undefined) {
      counts = {};
      linkDays.set(day, counts);
    }
    if (visit.bot) counts[BOTS_KEY] = (counts[BOTS_KEY] ?? 0) + 1;
    else
      for (const dimension of VISIT_DIMENSIONS) {
        const key = `${dimension}:${visit[dimension] ?? UNKNOWN}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
  }
  for (const { row, strings, fields } of rows) row.visits = JSON.stringify({ s: strings, v: fields });
  const dayCounts: DayCounts[] = [];
  for (const codeKey of [...days.keys()].sort()) {
    const linkDays = days.get(codeKey) as Map<number, Record<string, number>>;
    for (const day of [...linkDays.keys()].sort((a, b) => a - b))
      dayCounts.push({ codeKey, day, counts: linkDays.get(day) as Record<string, number> });
  }
  return { rows: rows.map(({ row }) => row), days: dayCounts };
}

/** The visits of a stored row (see `PackedVisitRow`), their ids made of the row's. */
export function unpackVisits(visits: string, rowId: number): StoredVisit[] {
  const { s, v } = JSON.parse(visits) as { s: Array<string | null>; v: number[] };
  const text = (index: number) => (index < 0 ? null : (s[index] ?? null));
  const result: StoredVisit[] = [];
  for (let i = 0, o = 0; o < v.length; i++, o += FIELDS) {
    result.push({
      id: rowId * VISITS_PER_ROW + i,
      at: (v[o] as number) * 1000,
      referrer: text(v[o + 1] as number),
      country: text(v[o + 2] as number),
      browser: text(v[o + 4] as number),
      os: text(v[o + 5] as number),
      device: text(v[o + 6] as number),
      bot: v[o + 7] === 1,
    });
  }
  return result;
}

/** Daily counts (each a `DayCounts.counts`, as stored) added up into stats' tallies. */
export function talliesOfCounts(rows: Iterable<Record<string, number>>): VisitTallies {
  const sums = new Map<string, number>();
  for (const counts of rows) for (const key in counts) sums.set(key, (sums.get(key) ?? 0) + Number(counts[key]));
  const result: VisitTallies = { bots: 0, tallies: [] };
  for (const [key, clicks] of sums) {
    const colon = key.indexOf(':');
    if (colon < 0) {
      if (key === BOTS_KEY) result.bots += clicks;
      continue;
    }
    const dimension = key.slice(0, colon) as VisitDimension;
    if (VISIT_DIMENSIONS.includes(dimension)) result.tallies.push({ dimension, name: key.slice(colon + 1), clicks });
  }
  return result;
}

const newerFirst = (a: StoredVisit, b: StoredVisit) => b.at - a.at || b.id - a.id;

/**
 * A page of visits, newest first, gathered from stored rows read newest `lastAt` first: rows'
 * times overlap (two processes, a retried batch), so rows are decoded until the next one can only
 * hold visits older than the page's last. `add` says whether another row may still belong.
 */
export function createVisitPage(limit: number, before?: { at: number; id: number }) {
  let visits: StoredVisit[] = [];
  let oldestKept = Number.NEGATIVE_INFINITY;
  const isBefore = (visit: StoredVisit) =>
    before === undefined || visit.at < before.at || (visit.at === before.at && visit.id < before.id);
  return {
    add(rowId: number, lastAt: number, packed: string): boolean {
      if (visits.length >= limit && lastAt * 1000 < oldestKept) return false;
      for (const visit of unpackVisits(packed, rowId)) if (isBefore(visit)) visits.push(visit);
      if (visits.length >= limit) {
        visits.sort(newerFirst);
        visits = visits.slice(0, limit);
        oldestKept = (visits[limit - 1] as StoredVisit).at;
      }
      return true;
    },
    visits(): StoredVisit[] {
      return visits.sort(newerFirst).slice(0, limit);
    },
  };
}

/** The range of rows' times (epoch seconds) that may hold visits before `before` (ms), for an index scan. */
export function rowRangeBefore(before?: { at: number }): { firstAtMax: number; lastAtMax: number } {
  if (before === undefined) return { firstAtMax: Number.MAX_SAFE_INTEGER, lastAtMax: Number.MAX_SAFE_INTEGER };
  const seconds = Math.floor(before.at / 1000);
  return { firstAtMax: seconds, lastAtMax: seconds + ROW_SPAN_SECONDS };
}
