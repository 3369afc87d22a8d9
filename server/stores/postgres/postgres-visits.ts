import type pg from 'pg';
import { FOLD_PER_BATCH, type StoredVisit, type VisitTallies } from '../../../core/management/visits/visits.js';
import type { CountedClickBatch } from '../../clicks/encoded-visits.js';
import { dayCountsJson, packEncodedVisits, packVisits } from '../../clicks/packed-visits.js';
import { createVisitPage, rowRangeBefore, talliesOfCounts } from '../../clicks/stored-visits.js';
import { withReconnect } from './postgres-errors.js';
import { fromMs } from './postgres-sql.js';

/** How long a writer waits to look for visits past their retention again when its last fold was not full. */
const FOLD_LOOK_EVERY_MS = 10_000;
/** Rows read past a page's size at a time: a page usually ends within a row or two of its last visit. */
const ROWS_PAST_PAGE = 16;

/** A PostgreSQL array literal of integers, made at once rather than value by value by the driver. */
const arrayLiteral = (values: ArrayLike<number>): string => `{${Array.prototype.join.call(values, ',')}}`;

/**
 * The visit columns of a click batch, for `unnest` (parameters 5 to 13 of the clicks statement):
 * the distinct code keys (`$5`, each joined to its link once), the batch's packed rows, and its
 * daily counts, both as indexes into the code keys. A row per link and batch and an object per
 * link and day, where a row per visit and per dimension and name cost redirects the most.
 */
export function visitColumns(batch: CountedClickBatch): unknown[] {
  // The click counter's visits come encoded; `visits` rows are the store contract's form.
  const { rows, days } =
    batch.encodedVisits === undefined ? packVisits(batch.visits ?? []) : packEncodedVisits(batch.encodedVisits);
  const codeKeys: string[] = [];
  const indexOf = new Map<string, number>();
  const code = (codeKey: string) => {
    let at = indexOf.get(codeKey);
    if (at === undefined) {
      at = codeKeys.push(codeKey); // PostgreSQL arrays count from 1
      indexOf.set(codeKey, at);
    }
    return at;
  };
  return [
    codeKeys,
    arrayLiteral(rows.map((row) => code(row.codeKey))),
    arrayLiteral(rows.map((row) => row.firstAt)),
    arrayLiteral(rows.map((row) => row.lastAt)),
    arrayLiteral(rows.map((row) => row.count)),
    // One JSON array each, sent as it is: as `text[]` the driver escaped every quote of every row.
    `[${rows.map((row) => row.visits).join(',')}]`,
    arrayLiteral(days.map((day) => code(day.codeKey))),
    arrayLiteral(days.map((day) => day.day)),
    `[${days.map(dayCountsJson).join(',')}]`,
  ];
}

/**
 * The clicks statement's visits, data-modifying CTEs: written in the same statement as the counts,
 * days in `packVisits`' order (by code key and day) so that writers take row locks in one order.
 */
export const visitsCte = (prefix: string) => `ids AS (
      SELECT k.i, l.id FROM unnest($5::text[]) WITH ORDINALITY AS k (code, i) JOIN ${prefix}links l ON l.code_key = k.code),
    visit_rows AS (
      INSERT INTO ${prefix}link_visit_rows (link_id, first_at, last_at, visit_count, visits)
      SELECT ids.id, r.first_at, r.last_at, r.n, r.visits::text
      FROM ROWS FROM (unnest($6::int[]), unnest($7::bigint[]), unnest($8::bigint[]), unnest($9::int[]),
          json_array_elements($10::json)) WITH ORDINALITY AS r (k, first_at, last_at, n, visits, o)
      JOIN ids ON ids.i = r.k
      ORDER BY r.o),
    visit_counts AS (
      INSERT INTO ${prefix}link_visit_counts AS c (link_id, day, counts)
      SELECT ids.id, d.day, d.counts::jsonb
      FROM ROWS FROM (unnest($11::int[]), unnest($12::int[]), json_array_elements($13::json)) WITH ORDINALITY
        AS d (k, day, counts, o)
      JOIN ids ON ids.i = d.k
      ORDER BY d.o
      ON CONFLICT (link_id, day) DO UPDATE SET counts = ${prefix}linklet_add_counts(c.counts, EXCLUDED.counts))`;

/**
 * Visit rows past their retention removed (their daily counts stay), at most `FOLD_PER_BATCH` rows
 * at a time, found through the BRIN index on their newest visit's time (rows another instance is
 * removing are skipped). A writer looks again at once while its removals are full (a backlog),
 * else after `foldEveryMs`, so a busy server pays for it rarely.
 */
export function createPostgresFolder(pool: pg.Pool, prefix: string, foldEveryMs = FOLD_LOOK_EVERY_MS) {
  const purge = `WITH old AS (
      DELETE FROM ${prefix}link_visit_rows WHERE ctid = ANY (ARRAY(
        SELECT ctid FROM ${prefix}link_visit_rows WHERE last_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED))
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
 * stats from its daily counts alone (one object a day, however many visits), pages from its rows
 * newest first, a few more than the page at a time.
 */
export function createPostgresVisitReads(pool: pg.Pool, prefix: string) {
  const link = `${prefix}links l`;
  const sameLink = `l.code_key = $1 AND l.created_at = ${fromMs('$2')}`;
  // The rows of the one link, LIMIT inside: joined, the planner expected a link's rows to be few
  // and sorted all of a busy one's rather than read the index backwards.
  const rowsBefore = `SELECT v.id, v.last_at, v.visits FROM ${link} CROSS JOIN LATERAL (
      SELECT v.id, v.last_at, v.visits FROM ${prefix}link_visit_rows v
      WHERE v.link_id = l.id AND v.first_at <= $3 AND v.last_at <= $4 AND (v.last_at, v.id) < ($5, $6)
      ORDER BY v.last_at DESC, v.id DESC LIMIT $7) AS v
    WHERE ${sameLink}`;
  return {
    async visitTalliesOf(codeKey: string, createdAt: number, fromDay: number, toDay: number): Promise<VisitTallies> {
      const { rows } = await withReconnect(() =>
        pool.query<{ counts: Record<string, number> }>({
          text: `SELECT c.counts FROM ${link} JOIN ${prefix}link_visit_counts c ON c.link_id = l.id
            WHERE ${sameLink} AND c.day >= $3 AND c.day <= $4`,
          values: [codeKey, createdAt, fromDay, toDay],
        }),
      );
      return talliesOfCounts(rows.map((row) => row.counts));
    },
    async listVisits(
      codeKey: string,
      createdAt: number,
      limit: number,
      before?: { at: number; id: number },
    ): Promise<StoredVisit[]> {
      const page = createVisitPage(limit, before);
      const { firstAtMax, lastAtMax } = rowRangeBefore(before);
      const chunk = limit + ROWS_PAST_PAGE;
      let after: [number, number] = [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
      for (;;) {
        const values = [codeKey, createdAt, firstAtMax, lastAtMax, ...after, chunk];
        const { rows } = await withReconnect(() =>
          pool.query<{ id: string; last_at: string; visits: string }>({ text: rowsBefore, values }),
        );
        for (const row of rows) {
          if (!page.add(Number(row.id), Number(row.last_at), row.visits)) return page.visits();
          after = [Number(row.last_at), Number(row.id)];
        }
        if (rows.length < chunk) return page.visits();
      }
    },
  };
}
