import type pg from 'pg';
import { tagsFromText, tagsToText } from '../../../core/management/links/link-labels.js';
import { type LinkManagementStore, type OwnerScope, retagged } from '../../../core/store/link-management-store.js';
import { fromMs } from './postgres-sql.js';

/** Runs `work` in one transaction on a connection of its own (rolled back if it throws). */
async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The edits of many rows at once on PostgreSQL: a tag renamed or deleted on every link of a
 * scope, a link's visits deleted. Each locks the links' rows first (`FOR UPDATE`), then changes
 * them in statements of their own: a click batch updates a link's row in the statement that
 * writes its days and visits, so it commits wholly before the lock is granted (and is deleted
 * with the rest) or waits for the commit (and counts as new), never half of each. Not retried
 * (a lost answer may have committed). The links' trigger tells the other instances.
 */
export function createPostgresBulkEdits(
  pool: pg.Pool,
  prefix: string,
): Pick<LinkManagementStore, 'renameTag' | 'deleteTag' | 'deleteVisits'> {
  const t = (table: string) => `${prefix}${table}`;
  const ownerParam = (scope: OwnerScope) => ('ownerId' in scope ? scope.ownerId : null);
  /** A changed row's `updatedAt`, moved forward to `now` (parameter `at`) at least. */
  const touched = (at: string) => `updated_at = greatest(${fromMs(at)}, updated_at + interval '1 millisecond')`;

  const retag = (scope: OwnerScope, from: string, to: string | undefined, now: number) =>
    inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ code_key: string; tags: string }>(
        `SELECT code_key, tags FROM ${t('links')}
         WHERE strpos(' ' || tags || ' ', $1) > 0 AND ($2::bigint IS NULL OR owner_id = $2)
         ORDER BY code_key FOR UPDATE`,
        [` ${from} `, ownerParam(scope)],
      );
      const codeKeys: string[] = [];
      const texts: Array<string | null> = [];
      for (const row of rows) {
        const tags = retagged(tagsFromText(row.tags), from, to);
        if (tags === undefined) continue;
        codeKeys.push(row.code_key);
        texts.push(tagsToText(tags));
      }
      if (codeKeys.length > 0) {
        await client.query(
          `UPDATE ${t('links')} AS l SET tags = u.tags, ${touched('$2')}
           FROM unnest($1::text[], $3::text[]) AS u (code_key, tags) WHERE l.code_key = u.code_key`,
          [codeKeys, now, texts],
        );
      }
      return codeKeys.length;
    });

  return {
    renameTag: (scope, from, to, now) => retag(scope, from, to, now),
    deleteTag: (scope, tag, now) => retag(scope, tag, undefined, now),
    deleteVisits: (codeKey, scope, now) =>
      inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ id: string; clicks: string }>(
          `SELECT id, clicks FROM ${t('links')} WHERE code_key = $1 AND ($2::bigint IS NULL OR owner_id = $2) FOR UPDATE`,
          [codeKey, ownerParam(scope)],
        );
        const link = rows[0];
        if (link === undefined) return undefined;
        const bots = await client.query<{ bots: string | null }>(
          `SELECT sum((counts ->> 'bots')::bigint) AS bots FROM ${t('link_visit_counts')} WHERE link_id = $1`,
          [link.id],
        );
        for (const table of ['link_click_days', 'link_visit_rows', 'link_visit_counts'])
          await client.query(`DELETE FROM ${t(table)} WHERE link_id = $1`, [link.id]);
        await client.query(`UPDATE ${t('links')} SET clicks = 0, ${touched('$2')} WHERE id = $1`, [link.id, now]);
        return Number(link.clicks) + Number(bots.rows[0]?.bots ?? 0);
      }),
  };
}
