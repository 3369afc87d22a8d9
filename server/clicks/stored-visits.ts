import {
  type StoredVisit,
  VISIT_DIMENSIONS,
  type VisitDimension,
  type VisitTallies,
} from '../../core/management/visits/visits.js';
import { BOTS_KEY, ROW_SPAN_SECONDS, STORED_FIELDS, VISITS_PER_ROW } from './packed-visits.js';

/** The visits of a stored row (see `PackedVisitRow`), their ids made of the row's. */
export function unpackVisits(visits: string, rowId: number): StoredVisit[] {
  const { s, v } = JSON.parse(visits) as { s: Array<string | null>; v: number[] };
  const text = (index: number) => (index < 0 ? null : (s[index] ?? null));
  const result: StoredVisit[] = [];
  for (let i = 0, o = 0; o < v.length; i++, o += STORED_FIELDS) {
    result.push({
      id: rowId * VISITS_PER_ROW + i,
      at: (v[o] as number) * 1000,
      referrer: text(v[o + 1] as number),
      country: text(v[o + 2] as number),
      userAgent: text(v[o + 3] as number),
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
