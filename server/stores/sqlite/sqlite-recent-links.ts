import type Database from 'better-sqlite3';
import type { Link, RecentLinksCursor } from '../../../core/store/link-store.js';
import { LINK_COLUMNS, type LinkRow, linkFromRow } from './sqlite-link-row.js';

const ACTIVE = 'expires_at > @now AND disabled = 0';
const NEWEST_FIRST = 'ORDER BY created_at DESC, code_key DESC LIMIT @limit';

/**
 * `recentActiveLinks` on SQLite: a backward walk of `links_by_age` from the cursor (a keyset,
 * so the millionth link costs what the first does), on the main connection.
 */
export function createSqliteRecentLinks(db: Database.Database) {
  const first = db.prepare(`SELECT code_key, ${LINK_COLUMNS} FROM links WHERE ${ACTIVE} ${NEWEST_FIRST}`).raw();
  const after = db
    .prepare(
      `SELECT code_key, ${LINK_COLUMNS} FROM links
       WHERE ${ACTIVE} AND (created_at, code_key) < (@createdAt, @codeKey)
       ${NEWEST_FIRST}`,
    )
    .raw();
  return async (limit: number, now: number, before?: RecentLinksCursor): Promise<Link[]> => {
    const rows = (before ? after.all({ now, limit, ...before }) : first.all({ now, limit })) as Array<
      [string, ...LinkRow]
    >;
    return rows.map(([codeKey, ...row]) => linkFromRow(codeKey, row as LinkRow));
  };
}
