import type pg from 'pg';
import type { Link, RecentLinksCursor } from '../../../core/store/link-store.js';
import { LINK_COLUMNS, type LinkRow, linkFromRow } from './postgres-link-row.js';
import { fromMs } from './postgres-sql.js';

/**
 * `recentActiveLinks` on PostgreSQL: a backward scan of `links_by_age` from the cursor (a
 * keyset, so every page costs the same), one pooled query per page.
 */
export function createPostgresRecentLinks(pool: pg.Pool, links: string) {
  const active = `expires_at > ${fromMs('$1')} AND NOT disabled`;
  const newestFirst = 'ORDER BY created_at DESC, code_key DESC LIMIT $2';
  const first = `SELECT ${LINK_COLUMNS} FROM ${links} WHERE ${active} ${newestFirst}`;
  const after = `SELECT ${LINK_COLUMNS} FROM ${links}
    WHERE ${active} AND (created_at, code_key) < (${fromMs('$3')}, $4) ${newestFirst}`;
  return async (limit: number, now: number, before?: RecentLinksCursor): Promise<Link[]> => {
    const { rows } = before
      ? await pool.query<LinkRow>(after, [now, limit, before.createdAt, before.codeKey])
      : await pool.query<LinkRow>(first, [now, limit]);
    return rows.map(linkFromRow);
  };
}
