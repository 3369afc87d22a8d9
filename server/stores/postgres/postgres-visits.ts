import type pg from 'pg';
import {
  BOTS_DIMENSION,
  FOLD_PER_BATCH,
  type StoredVisit,
  type VisitDimension,
  type VisitTallies,
} from '../../../core/management/visits/visits.js';
import type { ClickBatch } from '../../../core/rules/clicks.js';
import { dailyTallies } from '../../clicks/daily-tallies.js';
import { withReconnect } from './postgres-errors.js';
import { fromMs } from './postgres-sql.js';

/** How long a writer waits to look for visits past their retention again when its last fold was not full. */
const FOLD_LOOK_EVERY_MS = 10_000;

/** A PostgreSQL array literal of integers (or `t`/`f`), made at once rather than value by value by the driver. */
const arrayLiteral = (values: ArrayLike<number | string>): string => `{${Array.prototype.join.call(values, ',')}}`;

/** Every distinct string of a batch once, in a PostgreSQL array (which counts from 1; 0 is none). */
function createDictionary() {
  const strings: string[] = [];
  const indexOf = new Map<string, number>();
  return {
    strings,
    index(value: string | null): number {
      if (value === null) return 0;
      let at = indexOf.get(value);
      if (at === undefined) {
        at = strings.push(value);
        indexOf.set(value, at);
      }
      return at;
    },
  };
}

/**
 * The visit columns of a click batch, for `unnest` (parameters 5 to 20 of the clicks statement):
 * the distinct code keys (`$5`, each joined to its link once) and the distinct other strings
 * (`$6`: a few dozen, so looking one up by its index is cheap), and the visits and their daily
 * counts as integer indexes into them. The driver escaped every User-Agent, referrer and name of
 * every visit, one by one, which cost more than the rest of a beat.
 */
export function visitColumns(batch: ClickBatch): unknown[] {
  const visits = batch.visits ?? [];
  const tallies = dailyTallies(visits);
  const codeKeys = createDictionary();
  const values = createDictionary();
  const code = (codeKey: string) => codeKeys.index(codeKey);
  const value = (name: string | null) => values.index(name);
  const column = <T>(rows: readonly T[], of: (row: T) => number | string) => arrayLiteral(rows.map(of));
  return [
    codeKeys.strings,
    values.strings,
    column(visits, (v) => code(v.codeKey)),
    column(visits, (v) => v.at),
    column(visits, (v) => value(v.referrer)),
    column(visits, (v) => value(v.country)),
    column(visits, (v) => value(v.userAgent)),
    column(visits, (v) => value(v.browser)),
    column(visits, (v) => value(v.os)),
    column(visits, (v) => value(v.device)),
    column(visits, (v) => (v.bot ? 't' : 'f')),
    column(tallies.codeKeys, code),
    arrayLiteral(tallies.days),
    column(tallies.dimensions, value),
    column(tallies.names, value),
    arrayLiteral(tallies.counts),
  ];
}

/** The clicks statement's visits, data-modifying CTEs: written in the same statement as the counts. */
export const visitsCte = (prefix: string) => `ids AS (
      SELECT k.i, l.id FROM unnest($5::text[]) WITH ORDINALITY AS k (code, i) JOIN ${prefix}links l ON l.code_key = k.code),
    visits AS (
      INSERT INTO ${prefix}link_visits (link_id, at, referrer, country, user_agent, browser, os, device, bot)
      SELECT v.id, to_timestamp(v.at), ($6::text[])[v.referrer], ($6::text[])[v.country], ($6::text[])[v.ua],
        ($6::text[])[v.browser], ($6::text[])[v.os], ($6::text[])[v.device], v.bot
      -- Sorted as integers, the strings looked up after: a sort of the full rows spilled to disk.
      FROM (SELECT ids.id, v.* FROM unnest($7::int[], $8::bigint[], $9::int[], $10::int[], $11::int[], $12::int[],
          $13::int[], $14::int[], $15::bool[]) WITH ORDINALITY AS v (k, at, referrer, country, ua, browser, os, device, bot, n)
        JOIN ids ON ids.i = v.k
        ORDER BY v.n) AS v),
    tallies AS (
      INSERT INTO ${prefix}link_visit_days AS f (link_id, day, dimension, name, clicks)
      SELECT ids.id, date '1970-01-01' + t.day, ($6::text[])[t.dimension], ($6::text[])[t.name], t.clicks
      FROM unnest($16::int[], $17::int[], $18::int[], $19::int[], $20::bigint[]) WITH ORDINALITY
        AS t (k, day, dimension, name, clicks, n)
      JOIN ids ON ids.i = t.k
      ORDER BY t.n
      ON CONFLICT (link_id, day, dimension, name) DO UPDATE SET clicks = f.clicks + EXCLUDED.clicks)`;

/**
 * Visits past their retention removed (their daily counts stay), at most `FOLD_PER_BATCH` at a
 * time, found through the BRIN index on their time (rows another instance is removing are
 * skipped). A writer looks again at once while its removals are full (a backlog), else after
 * `foldEveryMs`, so a busy server pays for it rarely.
 */
export function createPostgresFolder(pool: pg.Pool, prefix: string, foldEveryMs = FOLD_LOOK_EVERY_MS) {
  const purge = `WITH old AS (
      DELETE FROM ${prefix}link_visits WHERE ctid = ANY (ARRAY(
        SELECT ctid FROM ${prefix}link_visits WHERE at < to_timestamp($1) LIMIT $2 FOR UPDATE SKIP LOCKED))
      RETURNING 1)
    SELECT count(*)::int AS n FROM old`;
  let lookAfter = 0;
  return async (foldBefore: number | undefined): Promise<void> => {
    if (foldBefore === undefined || Date.now() < lookAfter) return;
    const { rows } = await pool.query<{ n: number }>({
      name: 'linklet_purge_visits',
      text: purge,
      values: [foldBefore, FOLD_PER_BATCH],
    });
    lookAfter = (rows[0]?.n ?? 0) >= FOLD_PER_BATCH ? 0 : Date.now() + foldEveryMs;
  };
}

/**
 * A link's visits, read only while the link holding the code is the one created at `createdAt`:
 * stats from its daily counts per dimension alone (a few rows a day, however many visits).
 */
export function createPostgresVisitReads(pool: pg.Pool, prefix: string) {
  const link = `${prefix}links l`;
  const sameLink = `l.code_key = $1 AND l.created_at = ${fromMs('$2')}`;
  return {
    async visitTalliesOf(codeKey: string, createdAt: number, fromDay: number, toDay: number): Promise<VisitTallies> {
      const { rows } = await withReconnect(() =>
        pool.query<[string, string, string]>({
          rowMode: 'array',
          text: `SELECT f.dimension, f.name, sum(f.clicks) FROM ${link} JOIN ${prefix}link_visit_days f ON f.link_id = l.id
            WHERE ${sameLink} AND f.day >= date '1970-01-01' + $3::int AND f.day <= date '1970-01-01' + $4::int
            GROUP BY f.dimension, f.name`,
          values: [codeKey, createdAt, fromDay, toDay],
        }),
      );
      const result: VisitTallies = { bots: 0, tallies: [] };
      for (const [dimension, name, clicks] of rows) {
        if (dimension === BOTS_DIMENSION) result.bots += Number(clicks);
        else result.tallies.push({ dimension: dimension as VisitDimension, name, clicks: Number(clicks) });
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
