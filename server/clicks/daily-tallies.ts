import { UNKNOWN, VISIT_DIMENSIONS, type VisitRow } from '../../core/management/visits/visits.js';

/**
 * A batch's visits as additions to the daily counts per dimension: for each (code key, UTC day,
 * dimension, name), how many visits (bots under `bots` alone), sorted so that writers sharing a
 * database take row locks in one order. Plain arrays, for a writer thread or `unnest`.
 */
export interface DailyTallies {
  codeKeys: string[];
  days: number[];
  dimensions: string[];
  names: string[];
  counts: number[];
}

/** The dimensions in the order their names sort, `bots` first (so rows come out sorted without a sort of them all). */
const SORTED_DIMENSIONS = ['bots', ...VISIT_DIMENSIONS].sort();
const BOTS_AT = SORTED_DIMENSIONS.indexOf('bots');
const INDEX_OF = VISIT_DIMENSIONS.map((dimension) => SORTED_DIMENSIONS.indexOf(dimension));

/** One link's day: per dimension (in `SORTED_DIMENSIONS` order), visits per name. */
type LinkDay = Array<Map<string, number>>;

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A batch's visits as additions to the daily counts per dimension (bots under `bots` alone), in
 * the rows and order of the plain definition (test/server/daily-tallies.test.ts: code key, day,
 * dimension, name), so that
 * writers sharing a database take row locks in one order. Grouped per (code key, day) first, then
 * five `Map` updates per visit on the names themselves: one concatenated key per visit
 * and dimension, sorted and split again, cost more than the rest of a beat together.
 */
export function dailyTallies(visits: readonly VisitRow[]): DailyTallies {
  const links = new Map<string, Map<number, LinkDay>>();
  for (const visit of visits) {
    let days = links.get(visit.codeKey);
    if (days === undefined) {
      days = new Map();
      links.set(visit.codeKey, days);
    }
    const day = Math.floor(visit.at / 86_400);
    let counts = days.get(day);
    if (counts === undefined) {
      counts = SORTED_DIMENSIONS.map(() => new Map<string, number>());
      days.set(day, counts);
    }
    if (visit.bot) {
      const bots = counts[BOTS_AT] as Map<string, number>;
      bots.set('', (bots.get('') ?? 0) + 1);
      continue;
    }
    for (let d = 0; d < VISIT_DIMENSIONS.length; d++) {
      const names = counts[INDEX_OF[d] as number] as Map<string, number>;
      const name = visit[VISIT_DIMENSIONS[d] as (typeof VISIT_DIMENSIONS)[number]] ?? UNKNOWN;
      names.set(name, (names.get(name) ?? 0) + 1);
    }
  }
  const tallies: DailyTallies = { codeKeys: [], days: [], dimensions: [], names: [], counts: [] };
  for (const codeKey of [...links.keys()].sort(byName)) {
    const days = links.get(codeKey) as Map<number, LinkDay>;
    // Days as the core sorts them: as text.
    for (const day of [...days.keys()].sort((a, b) => byName(String(a), String(b)))) {
      const counts = days.get(day) as LinkDay;
      for (let d = 0; d < SORTED_DIMENSIONS.length; d++) {
        const names = counts[d] as Map<string, number>;
        for (const name of [...names.keys()].sort(byName)) {
          tallies.codeKeys.push(codeKey);
          tallies.days.push(day);
          tallies.dimensions.push(SORTED_DIMENSIONS[d] as string);
          tallies.names.push(name);
          tallies.counts.push(names.get(name) as number);
        }
      }
    }
  }
  return tallies;
}
