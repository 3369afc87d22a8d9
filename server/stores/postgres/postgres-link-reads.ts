import type pg from 'pg';
import type { Link } from '../../../core/store/link-store.js';
import { groupConcurrent } from '../group-concurrent.js';
import { withReconnect } from './postgres-errors.js';
import { LINK_COLUMNS, type LinkRow, linkFromRow as toLink } from './postgres-link-row.js';

// The most reads one `code_key = ANY(…)` lookup takes.
const MAX_FIND_GROUP = 256;

/**
 * The redirect reads (those the cache cannot answer) on PostgreSQL. Reads that arrive while
 * `maxInFlight` others are under way go together in one statement, as creates do, so a burst of
 * misses does not queue for the pool one by one.
 */
export function createPostgresLinkReads(
  pool: pg.Pool,
  links: string,
  maxInFlight: number,
): (codeKey: string) => Promise<Link | undefined> {
  const columns = LINK_COLUMNS;
  const byCodeKey = `SELECT ${columns} FROM ${links} WHERE code_key = $1`;
  const byCodeKeys = `SELECT ${columns} FROM ${links} WHERE code_key = ANY($1::text[])`;
  const findGroup = async (codeKeys: string[]): Promise<Array<Link | undefined>> => {
    if (codeKeys.length === 1) {
      // Named: each connection parses and plans it once, then only binds and runs it.
      const result = await withReconnect(() =>
        pool.query<LinkRow>({ name: 'linklet_find', text: byCodeKey, values: codeKeys }),
      );
      return [result.rows[0] && toLink(result.rows[0])];
    }
    const result = await withReconnect(() =>
      pool.query<LinkRow>({ name: 'linklet_find_group', text: byCodeKeys, values: [codeKeys] }),
    );
    const found = new Map(result.rows.map((row) => [row.code_key, toLink(row)]));
    return codeKeys.map((codeKey) => found.get(codeKey));
  };
  return groupConcurrent(findGroup, { maxInFlight, maxGroupSize: MAX_FIND_GROUP });
}
