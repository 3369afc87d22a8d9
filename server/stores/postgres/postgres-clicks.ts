import type pg from 'pg';
import { CLICK_DAYS_KEPT, type LinkClicks } from '../../../core/rules/clicks.js';
import type { CountedClickBatch } from '../../clicks/encoded-visits.js';
import { withReconnect } from './postgres-errors.js';
import { fromMs } from './postgres-sql.js';
import { createPostgresFolder, createPostgresVisitReads, visitColumns, visitsCte } from './postgres-visits.js';

const EPOCH_DAY = "date '1970-01-01'";

/**
 * Click batches as one statement each: the links' totals (`UPDATE … FROM unnest`), their days
 * under each link's id (`INSERT … ON CONFLICT` adding to the day), the batch's visits (packed
 * rows and daily counts, `visitsCte`), and, once per new day, the days past the kept ones. Increments only, so instances add up. A batch is not retried here: after a lost
 * connection it may have committed, and the counter would rather try it once more on its beat.
 */
export function createPostgresClicks(pool: pg.Pool, prefix: string, foldEveryMs?: number) {
  const add = `WITH batch AS (
      SELECT k, sum(n)::bigint AS n FROM unnest($1::text[], $2::bigint[]) AS b (k, n) GROUP BY k ORDER BY k),
    totals AS (
      UPDATE ${prefix}links l SET clicks = l.clicks + batch.n FROM batch WHERE l.code_key = batch.k
      RETURNING l.id, batch.n),
    purged AS (DELETE FROM ${prefix}link_click_days WHERE day < ${EPOCH_DAY} + $4::int),
    ${visitsCte(prefix)}
    INSERT INTO ${prefix}link_click_days AS d (link_id, day, clicks)
      SELECT id, ${EPOCH_DAY} + $3::int, n FROM totals
    ON CONFLICT (link_id, day) DO UPDATE SET clicks = d.clicks + EXCLUDED.clicks`;
  let purgedBefore = Number.NEGATIVE_INFINITY;
  const fold = createPostgresFolder(pool, prefix, foldEveryMs);
  return {
    ...createPostgresVisitReads(pool, prefix),
    async addClicks(batch: CountedClickBatch): Promise<void> {
      const { day, codeKeys, counts } = batch;
      const oldestKept = day - CLICK_DAYS_KEPT;
      // Older than any day kept: purges nothing, found at once through the index.
      const purgeBefore = oldestKept > purgedBefore ? oldestKept : -1;
      await pool.query({
        name: 'linklet_add_clicks',
        text: add,
        values: [codeKeys, counts, day, purgeBefore, ...visitColumns(batch)],
      });
      purgedBefore = Math.max(purgedBefore, oldestKept);
      // The counts are committed: a fold that fails must not fail the batch (it would be added
      // twice); its visits are folded by a later one.
      await fold(batch.foldBefore).catch(() => undefined);
    },
    async clicksOf(codeKey: string, createdAt: number, fromDay: number): Promise<LinkClicks> {
      const [total, days] = await Promise.all([
        withReconnect(() =>
          pool.query<{ clicks: string }>(
            `SELECT clicks FROM ${prefix}links WHERE code_key = $1 AND created_at = ${fromMs('$2')}`,
            [codeKey, createdAt],
          ),
        ),
        withReconnect(() =>
          pool.query<{ day: number; clicks: string }>(
            `SELECT d.day - ${EPOCH_DAY} AS day, d.clicks FROM ${prefix}links l
               JOIN ${prefix}link_click_days d ON d.link_id = l.id
             WHERE l.code_key = $1 AND l.created_at = ${fromMs('$2')} AND d.day >= ${EPOCH_DAY} + $3::int
             ORDER BY d.day`,
            [codeKey, createdAt, fromDay],
          ),
        ),
      ]);
      return {
        total: Number(total.rows[0]?.clicks ?? 0),
        days: days.rows.map((row) => ({ day: Number(row.day), clicks: Number(row.clicks) })),
      };
    },
  };
}
