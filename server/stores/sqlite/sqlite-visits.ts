import type Database from 'better-sqlite3';
import type { StoredVisit, VisitTallies } from '../../../core/management/visits/visits.js';
import { createVisitPage, rowRangeBefore, talliesOfCounts } from '../../clicks/stored-visits.js';

/** The first visit rows by row id (the order they were written), of which those all older than `@before` go. */
const OLD_ROWS = `SELECT rowid FROM (SELECT rowid, last_at FROM link_visit_rows ORDER BY rowid LIMIT @limit) WHERE last_at < @before`;

/** The writer's visit statements (text: the writer thread prepares them on its own connection). */
export const SQLITE_VISIT_SQL = {
  linkIdSql: 'SELECT id FROM links WHERE code_key = ?',
  addVisitRowSql:
    'INSERT INTO link_visit_rows (link_id, first_at, last_at, visit_count, visits) VALUES (?, ?, ?, ?, ?)',
  // linklet_add_counts: the writer's own function (createClickCommitter), as PostgreSQL's is its.
  addDayCountsSql: 'UPDATE link_visit_counts SET counts = linklet_add_counts(counts) WHERE link_id = ? AND day = ?',
  newDayCountsSql: 'INSERT INTO link_visit_counts (link_id, day, counts) VALUES (?, ?, ?)',
  oldestVisitSql: 'SELECT last_at FROM link_visit_rows ORDER BY rowid LIMIT 1',
  purgeVisitsSql: `DELETE FROM link_visit_rows WHERE rowid IN (${OLD_ROWS})`,
};

/**
 * A link's visits, read on the main connection (rare management reads), only while the link
 * holding the code is the one created at `createdAt`. Stats read its daily counts alone (one row
 * a day, however many visits); the listing reads its visit rows newest first through the
 * `(link_id, last_at)` index, only as many as the page needs.
 */
export function createSqliteVisitReads(db: Database.Database) {
  const daily = db
    .prepare<[string, number, number, number], string>(
      `SELECT f.counts FROM links l JOIN link_visit_counts f ON f.link_id = l.id
       WHERE l.code_key = ? AND l.created_at = ? AND f.day >= ? AND f.day <= ?`,
    )
    .pluck();
  const rows = db
    .prepare(
      `SELECT v.rowid, v.last_at, v.visits FROM links l JOIN link_visit_rows v ON v.link_id = l.id
       WHERE l.code_key = @codeKey AND l.created_at = @createdAt
         AND v.last_at <= @lastAtMax AND v.first_at <= @firstAtMax
       ORDER BY v.last_at DESC, v.rowid DESC`,
    )
    .raw();
  return {
    async visitTalliesOf(codeKey: string, createdAt: number, fromDay: number, toDay: number): Promise<VisitTallies> {
      return talliesOfCounts(daily.all(codeKey, createdAt, fromDay, toDay).map((counts) => JSON.parse(counts)));
    },
    async listVisits(
      codeKey: string,
      createdAt: number,
      limit: number,
      before?: { at: number; id: number },
    ): Promise<StoredVisit[]> {
      const page = createVisitPage(limit, before);
      for (const [id, lastAt, visits] of rows.iterate({ codeKey, createdAt, ...rowRangeBefore(before) }) as Iterable<
        [number, number, string]
      >)
        if (!page.add(id, lastAt, visits)) break;
      return page.visits();
    },
  };
}
