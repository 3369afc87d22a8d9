import {
  FOLD_PER_BATCH,
  type StoredVisit,
  tallyVisits,
  VISIT_DIMENSIONS,
  type VisitRow,
  type VisitTallies,
} from './visits.js';

const DAY_S = 86_400;
/** The folded counts' dimension of bot visits (not clicks). */
const BOTS = 'bots';

/**
 * The memory store's visits: each link's kept visits under its id, and the daily counts per
 * dimension that visits older than the retention are folded into (by the writer, a bounded
 * number per batch, oldest first), as the SQLite and PostgreSQL stores keep them.
 */
export function createMemoryVisits() {
  let lastId = 0;
  const kept = new Map<number, Array<StoredVisit & { day: number }>>();
  /** link id → `day dimension name` → clicks. */
  const folded = new Map<number, Map<string, number>>();
  const addFolded = (linkId: number, day: number, dimension: string, name: string) => {
    const counts = folded.get(linkId) ?? new Map<string, number>();
    const key = `${day}\u0000${dimension}\u0000${name}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    folded.set(linkId, counts);
  };
  return {
    add(linkId: number, row: VisitRow) {
      const visits = kept.get(linkId) ?? [];
      const { codeKey: _key, userAgent: _agent, at, ...rest } = row;
      visits.push({ ...rest, id: ++lastId, at: at * 1000, day: Math.floor(at / DAY_S) });
      kept.set(linkId, visits);
    },
    /** Folds up to `FOLD_PER_BATCH` visits older than `before` (epoch seconds), oldest first. */
    fold(before: number) {
      const old: Array<[number, StoredVisit & { day: number }]> = [];
      for (const [linkId, visits] of kept)
        for (const visit of visits) if (visit.at < before * 1000) old.push([linkId, visit]);
      old.sort(([, a], [, b]) => a.id - b.id);
      const chosen = new Set(old.slice(0, FOLD_PER_BATCH).map(([, visit]) => visit));
      for (const [linkId, visit] of old.slice(0, FOLD_PER_BATCH)) {
        if (visit.bot) addFolded(linkId, visit.day, BOTS, '');
        else
          for (const dimension of VISIT_DIMENSIONS)
            addFolded(linkId, visit.day, dimension, visit[dimension] ?? 'unknown');
      }
      for (const [linkId, visits] of kept) {
        const left = visits.filter((visit) => !chosen.has(visit));
        if (left.length === 0) kept.delete(linkId);
        else kept.set(linkId, left);
      }
    },
    drop(linkId: number) {
      kept.delete(linkId);
      folded.delete(linkId);
    },
    talliesOf(linkId: number, fromDay: number, toDay: number): VisitTallies {
      const inRange = (kept.get(linkId) ?? []).filter(({ day }) => day >= fromDay && day <= toDay);
      const result = tallyVisits(inRange);
      for (const [key, clicks] of folded.get(linkId) ?? []) {
        const [day, dimension, name] = key.split('\u0000') as [string, string, string];
        if (Number(day) < fromDay || Number(day) > toDay) continue;
        if (dimension === BOTS) {
          result.bots += clicks;
          continue;
        }
        const same = result.tallies.find((tally) => tally.dimension === dimension && tally.name === name);
        if (same) same.clicks += clicks;
        else result.tallies.push({ dimension: dimension as (typeof VISIT_DIMENSIONS)[number], name, clicks });
      }
      return result;
    },
    list(linkId: number, limit: number, before?: { at: number; id: number }): StoredVisit[] {
      return (kept.get(linkId) ?? [])
        .filter(
          (visit) => before === undefined || visit.at < before.at || (visit.at === before.at && visit.id < before.id),
        )
        .sort((a, b) => b.at - a.at || b.id - a.id)
        .slice(0, limit)
        .map(({ day: _day, ...visit }) => visit);
    },
  };
}
