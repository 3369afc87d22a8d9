import {
  BOTS_DIMENSION,
  FOLD_PER_BATCH,
  type StoredVisit,
  tallyName,
  VISIT_DIMENSIONS,
  type VisitDimension,
  type VisitRow,
  type VisitTallies,
} from './visits.js';

const DAY_S = 86_400;

/**
 * The memory store's visits, kept as the SQLite and PostgreSQL stores keep them: each visit is
 * counted into its link's daily counts per dimension as it is written (what stats read, whatever
 * the number of visits), and kept itself for the listing until it is past the retention, when
 * the writer removes it (a bounded number per batch, oldest first).
 */
export function createMemoryVisits() {
  let lastId = 0;
  const kept = new Map<number, StoredVisit[]>();
  /** link id → `day dimension name` → count. */
  const daily = new Map<number, Map<string, number>>();
  const count = (linkId: number, day: number, dimension: string, name: string) => {
    const counts = daily.get(linkId) ?? new Map<string, number>();
    const key = `${day}\u0000${dimension}\u0000${name}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    daily.set(linkId, counts);
  };
  return {
    add(linkId: number, row: VisitRow) {
      const visits = kept.get(linkId) ?? [];
      const { codeKey: _key, at, ...rest } = row;
      visits.push({ ...rest, id: ++lastId, at: at * 1000 });
      kept.set(linkId, visits);
      const day = Math.floor(at / DAY_S);
      if (row.bot) count(linkId, day, BOTS_DIMENSION, '');
      else for (const dimension of VISIT_DIMENSIONS) count(linkId, day, dimension, tallyName(row, dimension));
    },
    /** Removes up to `FOLD_PER_BATCH` visits older than `before` (epoch seconds), oldest written first. */
    fold(before: number) {
      const old: StoredVisit[] = [];
      for (const visits of kept.values()) for (const visit of visits) if (visit.at < before * 1000) old.push(visit);
      old.sort((a, b) => a.id - b.id);
      const chosen = new Set(old.slice(0, FOLD_PER_BATCH));
      for (const [linkId, visits] of kept) {
        const left = visits.filter((visit) => !chosen.has(visit));
        if (left.length === 0) kept.delete(linkId);
        else kept.set(linkId, left);
      }
    },
    drop(linkId: number) {
      kept.delete(linkId);
      daily.delete(linkId);
    },
    talliesOf(linkId: number, fromDay: number, toDay: number): VisitTallies {
      const result: VisitTallies = { bots: 0, tallies: [] };
      const sums = new Map<string, number>();
      for (const [key, n] of daily.get(linkId) ?? []) {
        const [day, dimension, name] = key.split('\u0000') as [string, string, string];
        if (Number(day) < fromDay || Number(day) > toDay) continue;
        if (dimension === BOTS_DIMENSION) result.bots += n;
        else sums.set(`${dimension}\u0000${name}`, (sums.get(`${dimension}\u0000${name}`) ?? 0) + n);
      }
      for (const [key, clicks] of sums) {
        const [dimension, name] = key.split('\u0000') as [VisitDimension, string];
        result.tallies.push({ dimension, name, clicks });
      }
      return result;
    },
    /** The link's bot visits over all its days. */
    botsOf(linkId: number): number {
      let bots = 0;
      for (const [key, n] of daily.get(linkId) ?? []) if (key.split('\u0000')[1] === BOTS_DIMENSION) bots += n;
      return bots;
    },
    list(linkId: number, limit: number, before?: { at: number; id: number }): StoredVisit[] {
      return (kept.get(linkId) ?? [])
        .filter(
          (visit) => before === undefined || visit.at < before.at || (visit.at === before.at && visit.id < before.id),
        )
        .sort((a, b) => b.at - a.at || b.id - a.id)
        .slice(0, limit);
    },
  };
}
