import type Database from 'better-sqlite3';
import {
  BOTS_DIMENSION,
  type StoredVisit,
  type VisitDimension,
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
