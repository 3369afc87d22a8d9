import type Database from 'better-sqlite3';
import {
  BOTS_DIMENSION,
  type StoredVisit,
  UNKNOWN,
  type VisitDimension,
  type VisitRow,
  type VisitTallies,
} from '../../../core/management/visits/visits.js';

/** The first visits by row id (the order they were written), of which those older than `@before` go. */
const OLD_ROWS = `SELECT rowid FROM (SELECT rowid, at FROM link_visits ORDER BY rowid LIMIT @limit) WHERE at < @before`;

/** The writer's visit statements (text: the writer thread prepares them on its own connection). */
export const SQLITE_VISIT_SQL = {
  linkIdSql: 'SELECT id FROM links WHERE code_key = ?',
  addVisitSql: `INSERT INTO link_visits (link_id, at, referrer, country, user_agent, browser, os, device, bot)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  addTallySql: `INSERT INTO link_visit_days (link_id, day, dimension, name, clicks) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (link_id, day, dimension, name) DO UPDATE SET clicks = clicks + excluded.clicks`,
  oldestVisitSql: 'SELECT at FROM link_visits ORDER BY rowid LIMIT 1',
  purgeVisitsSql: `DELETE FROM link_visits WHERE rowid IN (${OLD_ROWS})`,
  /** The daily counts' dimensions and the visit field (of `EncodedVisits`) each counts by. */
  tallyFields: [
    ['referrer', 1],
    ['country', 2],
    ['browser', 4],
    ['os', 5],
    ['device', 6],
  ] as Array<[VisitDimension, number]>,
  botsDimension: BOTS_DIMENSION,
  unknownName: UNKNOWN,
};

type VisitRowOut = [number, number, string | null, string | null, string | null, string | null, string | null, number];

/**
 * A link's visits, read on the main connection (rare management reads), only while the link
 * holding the code is the one created at `createdAt`. Stats read its daily counts per dimension
 * alone (a few rows a day, however many visits); the listing pages through the `(link_id, at)` index.
 */
export function createSqliteVisitReads(db: Database.Database) {
  const daily = db
    .prepare<[string, number, number, number]>(
      `SELECT f.dimension, f.name, sum(f.clicks) FROM links l JOIN link_visit_days f ON f.link_id = l.id
       WHERE l.code_key = ? AND l.created_at = ? AND f.day >= ? AND f.day <= ? GROUP BY f.dimension, f.name`,
    )
    .raw();
  const page = db
    .prepare(
      `SELECT v.rowid, v.at, v.referrer, v.country, v.browser, v.os, v.device, v.bot FROM links l
         JOIN link_visits v ON v.link_id = l.id
       WHERE l.code_key = @codeKey AND l.created_at = @createdAt AND (v.at, v.rowid) < (@at, @id)
       ORDER BY v.at DESC, v.rowid DESC LIMIT @limit`,
    )
    .raw();
  return {
    async visitTalliesOf(codeKey: string, createdAt: number, fromDay: number, toDay: number): Promise<VisitTallies> {
      const result: VisitTallies = { bots: 0, tallies: [] };
      for (const [dimension, name, clicks] of daily.all(codeKey, createdAt, fromDay, toDay) as Array<
        [string, string, number]
      >) {
        if (dimension === BOTS_DIMENSION) result.bots += clicks;
        else result.tallies.push({ dimension: dimension as VisitDimension, name, clicks });
      }
      return result;
    },
    async listVisits(
      codeKey: string,
      createdAt: number,
      limit: number,
      before?: { at: number; id: number },
    ): Promise<StoredVisit[]> {
      const rows = page.all({
        codeKey,
        createdAt,
        at: before === undefined ? Number.MAX_SAFE_INTEGER : Math.floor(before.at / 1000),
        id: before === undefined ? Number.MAX_SAFE_INTEGER : before.id,
        limit,
      }) as VisitRowOut[];
      return rows.map(([id, at, referrer, country, browser, os, device, bot]) => ({
        id,
        at: at * 1000,
        referrer,
        country,
        browser,
        os,
        device,
        bot: bot === 1,
      }));
    },
  };
}

/**
 * A batch's visits as the writer thread is handed them: every distinct string once, and per visit
 * eight integers (code key, referrer, country, User-Agent, browser, OS, device as indexes into
 * `strings`, 0 for none; then bot as 0 or 1) and its time. Copying a second's visits to the thread
 * as objects, each with its own User-Agent string, cost more than writing them.
 */
export interface EncodedVisits {
  strings: Array<string | null>;
  fields: Int32Array;
  at: Float64Array;
}

/** How many integers `EncodedVisits.fields` holds per visit. */
export const VISIT_FIELDS = 8;

/** The batch's visits in the writer thread's form (see `EncodedVisits`). */
export function encodeVisits(visits: readonly VisitRow[]): EncodedVisits {
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
  const fields = new Int32Array(visits.length * VISIT_FIELDS);
  const at = new Float64Array(visits.length);
  for (let n = 0; n < visits.length; n++) {
    const visit = visits[n] as VisitRow;
    const o = n * VISIT_FIELDS;
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
