import type pg from 'pg';
import type { ClickBatch } from '../../../core/clicks.js';
import {
  FOLD_PER_BATCH,
  type StoredVisit,
  type VisitDimension,
  type VisitTallies,
} from '../../../core/visits/visits.js';
import { withReconnect } from './postgres-errors.js';
import { fromMs } from './postgres-sql.js';

/** How long a writer waits to look for visits past their retention again when its last fold was not full. */
const FOLD_LOOK_EVERY_MS = 10_000;

/**
 * The visit columns of a click batch, for `unnest` (parameters 5 to 13 of the clicks statement).
 */
export function visitColumns(batch: ClickBatch): unknown[] {
  const visits = batch.visits ?? [];
  return [
    visits.map((v) => v.codeKey),
    visits.map((v) => v.at),
    visits.map((v) => v.referrer),
    visits.map((v) => v.country),
    visits.map((v) => v.userAgent),
    visits.map((v) => v.browser),
    visits.map((v) => v.os),
    visits.map((v) => v.device),
    visits.map((v) => v.bot),
  ];
}

/** The clicks statement's visits, a data-modifying CTE: written in the same statement as the counts. */
export const visitsCte = (prefix: string) => `visits AS (
      INSERT INTO ${prefix}link_visits (link_id, at, referrer, country, user_agent, browser, os, device, bot)
      SELECT l.id, to_timestamp(v.at), v.referrer, v.country, v.ua, v.browser, v.os, v.device, v.bot
      FROM unnest($5::text[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[],
        $12::text[], $13::bool[]) WITH ORDINALITY AS v (k, at, referrer, country, ua, browser, os, device, bot, n)
      JOIN ${prefix}links l ON l.code_key = v.k
      ORDER BY v.n)`;

/**
 * Visits past their retention, folded into daily counts per dimension and removed in one
 * statement, at most `FOLD_PER_BATCH` at a time (rows another instance is folding are skipped,
 * so instances never count a visit twice). A writer looks again at once while its folds are full
 * (a backlog), else after `foldEveryMs`, so a busy server pays for it rarely.
 */
export function createPostgresFolder(pool: pg.Pool, prefix: string, foldEveryMs = FOLD_LOOK_EVERY_MS) {
  const fold = `WITH old AS (
      DELETE FROM ${prefix}link_visits WHERE ctid = ANY (ARRAY(
        SELECT ctid FROM ${prefix}link_visits WHERE at < to_timestamp($1) LIMIT $2 FOR UPDATE SKIP LOCKED))
      RETURNING link_id, (at AT TIME ZONE 'UTC')::date AS day, referrer, country, browser, os, device, bot),
    named AS (
      SELECT link_id, day, 'bots' AS dimension, '' AS name FROM old WHERE bot
      UNION ALL SELECT link_id, day, 'referrer', coalesce(referrer, 'unknown') FROM old WHERE NOT bot
      UNION ALL SELECT link_id, day, 'country', coalesce(country, 'unknown') FROM old WHERE NOT bot
      UNION ALL SELECT link_id, day, 'browser', coalesce(browser, 'unknown') FROM old WHERE NOT bot
      UNION ALL SELECT link_id, day, 'os', coalesce(os, 'unknown') FROM old WHERE NOT bot
      UNION ALL SELECT link_id, day, 'device', coalesce(device, 'unknown') FROM old WHERE NOT bot),
    added AS (
      INSERT INTO ${prefix}link_visit_days AS f (link_id, day, dimension, name, clicks)
        SELECT link_id, day, dimension, name, count(*) FROM named GROUP BY link_id, day, dimension, name
      ON CONFLICT (link_id, day, dimension, name) DO UPDATE SET clicks = f.clicks + EXCLUDED.clicks)
    SELECT count(*)::int AS n FROM old`;
  let lookAfter = 0;
  return async (foldBefore: number | undefined): Promise<void> => {
    if (foldBefore === undefined || Date.now() < lookAfter) return;
    const { rows } = await pool.query<{ n: number }>({
      name: 'linklet_fold_visits',
      text: fold,
      values: [foldBefore, FOLD_PER_BATCH],
    });
    lookAfter = (rows[0]?.n ?? 0) >= FOLD_PER_BATCH ? 0 : Date.now() + foldEveryMs;
  };
}

/** A link's visits, read only while the link holding the code is the one created at `createdAt`. */
export function createPostgresVisitReads(pool: pg.Pool, prefix: string) {
  const link = `${prefix}links l`;
  const sameLink = `l.code_key = $1 AND l.created_at = ${fromMs('$2')}`;
  return {
    async visitTalliesOf(codeKey: string, createdAt: number, fromDay: number, toDay: number): Promise<VisitTallies> {
      const [kept, folded] = await Promise.all([
        withReconnect(() =>
          pool.query<[string | null, string | null, string | null, string | null, string | null, boolean, string]>({
            rowMode: 'array',
            text: `SELECT v.referrer, v.country, v.browser, v.os, v.device, v.bot, count(*) FROM ${link}
                JOIN ${prefix}link_visits v ON v.link_id = l.id
              WHERE ${sameLink} AND v.at >= to_timestamp($3) AND v.at < to_timestamp($4)
              GROUP BY v.referrer, v.country, v.browser, v.os, v.device, v.bot`,
            values: [codeKey, createdAt, fromDay * 86_400, (toDay + 1) * 86_400],
          }),
        ),
        withReconnect(() =>
          pool.query<[string, string, string]>({
            rowMode: 'array',
            text: `SELECT f.dimension, f.name, sum(f.clicks) FROM ${link} JOIN ${prefix}link_visit_days f ON f.link_id = l.id
              WHERE ${sameLink} AND f.day >= date '1970-01-01' + $3::int AND f.day <= date '1970-01-01' + $4::int
              GROUP BY f.dimension, f.name`,
            values: [codeKey, createdAt, fromDay, toDay],
          }),
        ),
      ]);
      const result: VisitTallies = { bots: 0, tallies: [] };
      const sums = new Map<string, number>();
      const add = (dimension: string, name: string, clicks: number) => {
        const key = `${dimension}\u0000${name}`;
        sums.set(key, (sums.get(key) ?? 0) + clicks);
      };
      for (const [referrer, country, browser, os, device, bot, count] of kept.rows) {
        const n = Number(count);
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
      for (const [dimension, name, count] of folded.rows) {
        if (dimension === 'bots') result.bots += Number(count);
        else add(dimension, name, Number(count));
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
      const { rows } = await withReconnect(() =>
        pool.query<{
          id: string;
          at: string;
          referrer: string | null;
          country: string | null;
          browser: string | null;
          os: string | null;
          device: string | null;
          bot: boolean;
        }>(
          `SELECT v.id, (extract(epoch FROM v.at) * 1000)::bigint AS at, v.referrer, v.country, v.browser, v.os,
              v.device, v.bot
            FROM ${link} JOIN ${prefix}link_visits v ON v.link_id = l.id
            WHERE ${sameLink} AND ($3::bigint IS NULL OR (v.at, v.id) < (${fromMs('$3')}, $4::bigint))
            ORDER BY v.at DESC, v.id DESC LIMIT $5`,
          [codeKey, createdAt, before?.at ?? null, before?.id ?? null, limit],
        ),
      );
      return rows.map((row) => ({ ...row, id: Number(row.id), at: Number(row.at) }));
    },
  };
}
