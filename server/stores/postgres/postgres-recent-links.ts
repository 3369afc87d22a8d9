import type pg from 'pg';
import type { Link, RecentLinksCursor } from '../../../core/store/link-store.js';
import { LINK_COLUMNS, type LinkRow, linkFromRow } from './postgres-link-row.js';
import { fromMs } from './postgres-sql.js';

/**
 * The two statements of `recentActiveLinks` on the `links` table named `links`: the first page,
 * and a page after a cursor (`$3`, `$4`). Ordered by the table's columns, named as such (`l.`):
 * a bare `created_at` in ORDER BY is the selected milliseconds of that name, which no index
 * holds, and every active link was read and sorted for each page (a million links: every page
 * of a warming server's start a full scan and sort, for minutes, slowing every other query).
 */
export function recentLinksSql(links: string): { first: string; after: string } {
  const active = `l.expires_at > ${fromMs('$1')} AND NOT l.disabled`;
  const newestFirst = 'ORDER BY l.created_at DESC, l.code_key DESC LIMIT $2';
  return {
    first: `SELECT ${LINK_COLUMNS} FROM ${links} AS l WHERE ${active} ${newestFirst}`,
    after: `SELECT ${LINK_COLUMNS} FROM ${links} AS l
      WHERE ${active} AND (l.created_at, l.code_key) < (${fromMs('$3')}, $4) ${newestFirst}`,
  };
}

/**
 * `recentActiveLinks` on PostgreSQL: a backward scan of `links_by_age` from the cursor (a
 * keyset, so every page costs the same), one pooled query per page.
 */
export function createPostgresRecentLinks(pool: pg.Pool, links: string) {
  const { first, after } = recentLinksSql(links);
  return async (limit: number, now: number, before?: RecentLinksCursor): Promise<Link[]> => {
    const { rows } = before
      ? await pool.query<LinkRow>(after, [now, limit, before.createdAt, before.codeKey])
      : await pool.query<LinkRow>(first, [now, limit]);
    return rows.map(linkFromRow);
  };
}
