import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { StoredVisit, VisitRow, VisitTallies } from '../../core/management/visits/visits.js';
import { VISITS_PER_ROW } from '../../server/clicks/packed-visits.js';
import { sortedTallies } from './visit-contract.js';

/**
 * The visits of one link as a release that kept visits wrote them, for the migration tests of
 * both stores: the same visits and counts go into each old shape (a row per visit and per
 * dimension and name, or packed rows and one object of counts a day), so today's store must list
 * and tally them alike whichever shape it migrated from.
 */

/** A minute after the old links were made (epoch seconds). */
const AT = Date.UTC(2026, 0, 10, 9, 1) / 1000;
/** The UTC day of the kept visits. */
export const VISIT_DAY = Math.floor(AT / 86_400);
/** A day past the visits' retention: its visits were folded away, only its counts are left. */
export const FOLDED_DAY = VISIT_DAY - 100;

/** A visit as both old shapes kept it: a row of today's batches, without the code it came by. */
type OldVisit = Omit<VisitRow, 'codeKey'>;

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** In the order they were written: a person's, one that asked not to be tracked (its time alone), a bot's. */
const OLD_VISITS: OldVisit[] = [
  {
    at: AT,
    referrer: 'news.example',
    country: 'KR',
    userAgent: FIREFOX,
    browser: 'Firefox',
    os: 'Linux',
    device: 'desktop',
    bot: false,
  },
  { at: AT + 60, referrer: null, country: null, userAgent: null, browser: null, os: null, device: null, bot: false },
  {
    at: AT + 120,
    referrer: 'direct',
    country: 'US',
    userAgent: GOOGLEBOT,
    browser: null,
    os: null,
    device: null,
    bot: true,
  },
];

/**
 * Each day's counts as `dimension:name` → visits (bots under `bots` alone), as both shapes hold
 * them: every visit was counted as it was written, so the folded day's counts outlived its visits.
 */
const OLD_DAY_COUNTS: Array<{ day: number; counts: Record<string, number> }> = [
  {
    day: FOLDED_DAY,
    counts: {
      'referrer:direct': 4,
      'country:DE': 4,
      'browser:Chrome': 4,
      'os:Windows': 4,
      'device:mobile': 4,
      bots: 2,
    },
  },
  {
    day: VISIT_DAY,
    counts: {
      'referrer:news.example': 1,
      'country:KR': 1,
      'browser:Firefox': 1,
      'os:Linux': 1,
      'device:desktop': 1,
      'referrer:unknown': 1,
      'country:unknown': 1,
      'browser:unknown': 1,
      'os:unknown': 1,
      'device:unknown': 1,
      bots: 1,
    },
  },
];

/** The day counts as rows of `link_visit_days` (before packing): a bot's name was ''. */
const oldDayRows = (): Array<{ day: number; dimension: string; name: string; clicks: number }> =>
  OLD_DAY_COUNTS.flatMap(({ day, counts }) =>
    Object.entries(counts).map(([key, clicks]) => {
      const [dimension, name = ''] = key.split(/:(.*)/) as [string, string?];
      return { day, dimension, name, clicks };
    }),
  );

/**
 * The three visits as one packed row (`link_visit_rows.visits`), as the packing writers stored a
 * batch: the row's distinct strings, then eight numbers a visit (time, then referrer, country,
 * User-Agent, browser, OS and device as indexes into the strings, -1 for none, then 1 for a bot).
 */
const PACKED_ROW = {
  firstAt: AT,
  lastAt: AT + 120,
  count: 3,
  visits:
    `{"s":["news.example","KR",${JSON.stringify(FIREFOX)},"Firefox","Linux","desktop","direct","US",` +
    `${JSON.stringify(GOOGLEBOT)}],"v":[${AT},0,1,2,3,4,5,0,${AT + 60},-1,-1,-1,-1,-1,-1,0,` +
    `${AT + 120},6,7,8,-1,-1,-1,1]}`,
};

/**
 * The visits under `linkId` of a SQLite file at a schema with visits: packed (schema 8 on), or a
 * row each in `link_visits` (times in epoch seconds) and a row per day, dimension and name.
 */
export function seedSqliteVisits(db: Database.Database, linkId: number, packed: boolean): void {
  if (packed) {
    db.prepare(
      'INSERT INTO link_visit_rows (link_id, first_at, last_at, visit_count, visits) VALUES (?, ?, ?, ?, ?)',
    ).run(linkId, PACKED_ROW.firstAt, PACKED_ROW.lastAt, PACKED_ROW.count, PACKED_ROW.visits);
    const day = db.prepare('INSERT INTO link_visit_counts (link_id, day, counts) VALUES (?, ?, ?)');
    for (const { day: n, counts } of OLD_DAY_COUNTS) day.run(linkId, n, JSON.stringify(counts));
    return;
  }
  const visit = db.prepare(
    `INSERT INTO link_visits (link_id, at, referrer, country, user_agent, browser, os, device, bot)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const v of OLD_VISITS)
    visit.run(linkId, v.at, v.referrer, v.country, v.userAgent, v.browser, v.os, v.device, v.bot ? 1 : 0);
  const tally = db.prepare(
    'INSERT INTO link_visit_days (link_id, day, dimension, name, clicks) VALUES (?, ?, ?, ?, ?)',
  );
  for (const { day, dimension, name, clicks } of oldDayRows()) tally.run(linkId, day, dimension, name, clicks);
}

/**
 * The same in a PostgreSQL schema (the search path's) with visits: packed (schema 9 on, counts as
 * `jsonb`), or a row each in `link_visits` (times as `timestamptz`, days as dates).
 */
export async function seedPostgresVisits(client: pg.ClientBase, linkId: number, packed: boolean): Promise<void> {
  if (packed) {
    await client.query(
      'INSERT INTO link_visit_rows (link_id, first_at, last_at, visit_count, visits) VALUES ($1, $2, $3, $4, $5)',
      [linkId, PACKED_ROW.firstAt, PACKED_ROW.lastAt, PACKED_ROW.count, PACKED_ROW.visits],
    );
    for (const { day, counts } of OLD_DAY_COUNTS)
      await client.query('INSERT INTO link_visit_counts (link_id, day, counts) VALUES ($1, $2, $3::jsonb)', [
        linkId,
        day,
        JSON.stringify(counts),
      ]);
    return;
  }
  for (const v of OLD_VISITS)
    await client.query(
      `INSERT INTO link_visits (link_id, at, referrer, country, user_agent, browser, os, device, bot)
       VALUES ($1, to_timestamp($2), $3, $4, $5, $6, $7, $8, $9)`,
      [linkId, v.at, v.referrer, v.country, v.userAgent, v.browser, v.os, v.device, v.bot],
    );
  for (const { day, dimension, name, clicks } of oldDayRows())
    await client.query(
      `INSERT INTO link_visit_days (link_id, day, dimension, name, clicks)
       VALUES ($1, date '1970-01-01' + $2::int, $3, $4, $5)`,
      [linkId, day, dimension, name, clicks],
    );
}

/**
 * The visits as `listVisits` answers them after the migration, newest first. A visit's id is its
 * row's id × `VISITS_PER_ROW` + its place in the row: moved from a row each (ids 1 to 3 by the
 * order written), or kept in the one packed row.
 */
export function listedVisits(packed: boolean): StoredVisit[] {
  return OLD_VISITS.map(({ at, ...visit }, index) => ({
    id: packed ? VISITS_PER_ROW + index : (index + 1) * VISITS_PER_ROW,
    at: at * 1000,
    ...visit,
  })).reverse();
}

/** What stats read of the kept visits' day alone. */
export const VISIT_DAY_TALLIES: VisitTallies = sortedTallies({
  bots: 1,
  tallies: [
    { dimension: 'referrer', name: 'news.example', clicks: 1 },
    { dimension: 'referrer', name: 'unknown', clicks: 1 },
    { dimension: 'country', name: 'KR', clicks: 1 },
    { dimension: 'country', name: 'unknown', clicks: 1 },
    { dimension: 'browser', name: 'Firefox', clicks: 1 },
    { dimension: 'browser', name: 'unknown', clicks: 1 },
    { dimension: 'os', name: 'Linux', clicks: 1 },
    { dimension: 'os', name: 'unknown', clicks: 1 },
    { dimension: 'device', name: 'desktop', clicks: 1 },
    { dimension: 'device', name: 'unknown', clicks: 1 },
  ],
});

/** And from the folded day to it: the folded visits counted with the kept. */
export const ALL_DAYS_TALLIES: VisitTallies = sortedTallies({
  bots: 3,
  tallies: [
    ...VISIT_DAY_TALLIES.tallies,
    { dimension: 'referrer', name: 'direct', clicks: 4 },
    { dimension: 'country', name: 'DE', clicks: 4 },
    { dimension: 'browser', name: 'Chrome', clicks: 4 },
    { dimension: 'os', name: 'Windows', clicks: 4 },
    { dimension: 'device', name: 'mobile', clicks: 4 },
  ],
});
