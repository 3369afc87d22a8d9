import type Database from 'better-sqlite3';
import type { StoredVisit, VisitDimension, VisitTallies } from '../../../core/visits/visits.js';

const DAY_S = 86_400;

/** The first visits by row id (the order they were written), of which those older than `@before` go. */
const FOLDED_ROWS = `SELECT rowid FROM (SELECT rowid, at FROM link_visits ORDER BY rowid LIMIT @limit) WHERE at < @before`;

/** The writer's visit statements (text: the writer thread prepares them on its own connection). */
export const SQLITE_VISIT_SQL = {
  linkIdSql: 'SELECT id FROM links WHERE code_key = ?',
  addVisitSql: `INSERT INTO link_visits (link_id, at, referrer, country, user_agent, browser, os, device, bot)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  oldestVisitSql: 'SELECT at FROM link_visits ORDER BY rowid LIMIT 1',
  foldSql: `WITH old AS (
      SELECT link_id, at / ${DAY_S} AS day, referrer, country, browser, os, device, bot FROM link_visits
      WHERE rowid IN (${FOLDED_ROWS})),
    named AS (
      SELECT link_id, day, 'bots' AS dimension, '' AS name FROM old WHERE bot = 1
      UNION ALL SELECT link_id, day, 'referrer', coalesce(referrer, 'unknown') FROM old WHERE bot = 0
      UNION ALL SELECT link_id, day, 'country', coalesce(country, 'unknown') FROM old WHERE bot = 0
      UNION ALL SELECT link_id, day, 'browser', coalesce(browser, 'unknown') FROM old WHERE bot = 0
      UNION ALL SELECT link_id, day, 'os', coalesce(os, 'unknown') FROM old WHERE bot = 0
      UNION ALL SELECT link_id, day, 'device', coalesce(device, 'unknown') FROM old WHERE bot = 0)
    INSERT INTO link_visit_days (link_id, day, dimension, name, clicks)
      SELECT link_id, day, dimension, name, count(*) FROM named WHERE true GROUP BY link_id, day, dimension, name
    ON CONFLICT (link_id, day, dimension, name) DO UPDATE SET clicks = clicks + excluded.clicks`,
  unfoldedSql: `DELETE FROM link_visits WHERE rowid IN (${FOLDED_ROWS})`,
};

type TallyRow = [string | null, string | null, string | null, string | null, string | null, number, number];
type VisitRowOut = [number, number, string | null, string | null, string | null, string | null, string | null, number];

/**
 * A link's visits, read on the main connection (rare management reads), only while the link
 * holding the code is the one created at `createdAt`: one pass over its kept visits in the range
 * (grouped by every dimension at once, through the `(link_id, at)` index) and one over its folded days.
 */
export function createSqliteVisitReads(db: Database.Database) {
  const kept = db
    .prepare<[string, number, number, number]>(
      `SELECT v.referrer, v.country, v.browser, v.os, v.device, v.bot, count(*) FROM links l
         JOIN link_visits v ON v.link_id = l.id
       WHERE l.code_key = ? AND l.created_at = ? AND v.at >= ? AND v.at < ?
       GROUP BY v.referrer, v.country, v.browser, v.os, v.device, v.bot`,
    )
    .raw();
  const folded = db
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
      const sums = new Map<string, number>();
      const add = (dimension: VisitDimension, name: string, clicks: number) => {
        const key = `${dimension}\u0000${name}`;
        sums.set(key, (sums.get(key) ?? 0) + clicks);
      };
      for (const [referrer, country, browser, os, device, bot, n] of kept.all(
        codeKey,
        createdAt,
        fromDay * DAY_S,
        (toDay + 1) * DAY_S,
      ) as TallyRow[]) {
        if (bot) {
          result.bots += n;
          continue;
        }
        add('referrer', referrer ?? 'unknown', n);
        add('country', country ?? 'unknown', n);
        add('browser', browser ?? 'unknown', n);
        add('os', os ?? 'unknown', n);
        add('device', device ?? 'unknown', n);
      }
      for (const [dimension, name, n] of folded.all(codeKey, createdAt, fromDay, toDay) as Array<
        [string, string, number]
      >) {
        if (dimension === 'bots') result.bots += n;
        else add(dimension as VisitDimension, name, n);
      }
      for (const [key, clicks] of sums) {
        const [dimension, name] = key.split('\u0000') as [VisitDimension, string];
        result.tallies.push({ dimension, name, clicks });
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
