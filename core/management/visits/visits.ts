import { formatDay } from '../../rules/clicks.js';
import type { VisitRow } from '../../rules/visit-rows.js';

// Kept at the bottom layer (core/rules), where clicks.ts reads them too, so no import goes up.
export type { RawVisit, VisitRow } from '../../rules/visit-rows.js';

/** Whether a request asks not to be tracked (`DNT: 1` or `Sec-GPC: 1`). */
export const asksNotToBeTracked = (dnt: string | null | undefined, gpc: string | null | undefined): boolean =>
  dnt?.trim() === '1' || gpc?.trim() === '1';

/** A stored visit as `listVisits` returns it: its store id (for the cursor) and time in ms. */
export interface StoredVisit {
  id: number;
  at: number;
  referrer: string | null;
  country: string | null;
  /**
   * The User-Agent as kept (cut to 256 characters; null when withheld). The v1 API shows the
   * browser, OS and device parsed from it; Shlink's clients parse it themselves.
   */
  userAgent: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  bot: boolean;
}

export const VISIT_DIMENSIONS = ['referrer', 'country', 'browser', 'os', 'device'] as const;
export type VisitDimension = (typeof VISIT_DIMENSIONS)[number];

/** The list name of a visit's missing value (withheld, or not known). */
export const UNKNOWN = 'unknown';

/** Clicks (bots apart) per value of one dimension; folded days and kept visits added together. */
export interface VisitTally {
  dimension: VisitDimension;
  name: string;
  clicks: number;
}

export interface VisitTallies {
  /** Bot visits in the range (not clicks). */
  bots: number;
  tallies: VisitTally[];
}

/** Visits are kept this many days by default, then folded into daily counts per dimension. */
export const DEFAULT_VISITS_RETENTION_DAYS = 90;

/** At most this many visits past the retention are removed per batch, so a write never grows with the backlog. */
export const FOLD_PER_BATCH = 2000;

/** The value a visit counts under in one dimension's list. */
export function tallyName(visit: Pick<VisitRow, VisitDimension>, dimension: VisitDimension): string {
  return visit[dimension] ?? UNKNOWN;
}

/** How many names a stats list shows before the rest is `other`. */
export const TOP_NAMES = 10;

/** A dimension's list: biggest first (ties by name), the top 10, then the rest as `other`. */
export function topList(counts: Map<string, number>): Array<{ name: string; clicks: number }> {
  const sorted = [...counts]
    .filter(([, clicks]) => clicks > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, clicks]) => ({ name, clicks }));
  if (sorted.length <= TOP_NAMES) return sorted;
  const rest = sorted.slice(TOP_NAMES).reduce((sum, { clicks }) => sum + clicks, 0);
  return [...sorted.slice(0, TOP_NAMES), { name: 'other', clicks: rest }];
}

export interface LinkStats {
  total: number;
  bots: number;
  days: Array<{ day: string; clicks: number }>;
  referrers: Array<{ name: string; clicks: number }>;
  countries: Array<{ name: string; clicks: number }>;
  browsers: Array<{ name: string; clicks: number }>;
  os: Array<{ name: string; clicks: number }>;
  devices: Array<{ name: string; clicks: number }>;
}

const LIST_OF: Record<VisitDimension, Exclude<keyof LinkStats, 'total' | 'bots' | 'days'>> = {
  referrer: 'referrers',
  country: 'countries',
  browser: 'browsers',
  os: 'os',
  device: 'devices',
};

/**
 * The stats of a link over `fromDay..toDay`: every day of the range with its clicks (0 when
 * none), the total of those days, bot visits, and each dimension's top list.
 */
export function linkStatsOf(
  clickDays: Array<{ day: number; clicks: number }>,
  tallies: VisitTallies,
  fromDay: number,
  toDay: number,
): LinkStats {
  const byDay = new Map(clickDays.map(({ day, clicks }) => [day, clicks]));
  const days: LinkStats['days'] = [];
  let total = 0;
  for (let day = fromDay; day <= toDay; day++) {
    const clicks = byDay.get(day) ?? 0;
    total += clicks;
    days.push({ day: formatDay(day), clicks });
  }
  const counts = new Map<VisitDimension, Map<string, number>>(VISIT_DIMENSIONS.map((d) => [d, new Map()]));
  for (const { dimension, name, clicks } of tallies.tallies) {
    const names = counts.get(dimension);
    names?.set(name, (names.get(name) ?? 0) + clicks);
  }
  const stats: LinkStats = {
    total,
    bots: tallies.bots,
    days,
    referrers: [],
    countries: [],
    browsers: [],
    os: [],
    devices: [],
  };
  for (const dimension of VISIT_DIMENSIONS) stats[LIST_OF[dimension]] = topList(counts.get(dimension) ?? new Map());
  return stats;
}

/** The daily counts' dimension of bot visits (not clicks); its one name is ''. */
export const BOTS_DIMENSION = 'bots';

/** Tallies of visits (a check in tests): bots apart, per dimension. */
export function tallyVisits(visits: Iterable<Pick<VisitRow, VisitDimension | 'bot'>>): VisitTallies {
  let bots = 0;
  const counts = new Map<string, VisitTally>();
  for (const visit of visits) {
    if (visit.bot) {
      bots++;
      continue;
    }
    for (const dimension of VISIT_DIMENSIONS) {
      const name = tallyName(visit, dimension);
      const key = `${dimension}\u0000${name}`;
      const tally = counts.get(key);
      if (tally) tally.clicks++;
      else counts.set(key, { dimension, name, clicks: 1 });
    }
  }
  return { bots, tallies: [...counts.values()] };
}
