import { packVisits } from '../dist/server/clicks/packed-visits.js';
import { visitSlices } from './visit-mix.mjs';

// Visits written straight into the database (`BENCH_SEED=sql` of bench/visits.mjs): the server's
// path writes a few thousand of the bench's visits a second, so 10M of them would take hours.
// The same mix as bench/visits.mjs (see visit-mix.mjs), in time order, packed one second at a
// time as a server's batches pack them (`packVisits`), the rows inserted many to a statement;
// then each link's counts per day and daily clicks, summed over the whole run, as a real
// database holds them (one object per link and day, however many batches added to it).

/** Packed rows per insert statement. */
const ROWS_PER_INSERT = 2000;
/** SQLite rows per multi-row VALUES statement (5 parameters each, under SQLite's limit of 32,766). */
const SQLITE_ROWS_PER_STATEMENT = 500;

/**
 * The packed rows of the run's visits, a statement's worth at a time; `days` gathers every link's
 * counts per day (code key → day → counts) as the rows go by.
 */
function* packedRows(options, days) {
  let rows = [];
  for (const second of visitSlices(options)) {
    const packed = packVisits(second);
    for (const row of packed.rows) rows.push(row);
    for (const { codeKey, day, names, counts } of packed.days) {
      let linkDays = days.get(codeKey);
      if (linkDays === undefined) {
        linkDays = new Map();
        days.set(codeKey, linkDays);
      }
      const sum = linkDays.get(day) ?? {};
      names.forEach((name, i) => {
        sum[name] = (sum[name] ?? 0) + counts[i];
      });
      linkDays.set(day, sum);
    }
    if (rows.length >= ROWS_PER_INSERT) {
      yield rows;
      rows = [];
    }
  }
  if (rows.length > 0) yield rows;
}

/** The gathered days as rows: link id, day, counts, and the day's clicks (its visits but bots: one `referrer:` each). */
function dayRows(days, idOf) {
  const result = [];
  for (const [codeKey, linkDays] of days)
    for (const [day, counts] of linkDays) {
      let clicks = 0;
      for (const key in counts) if (key.startsWith('referrer:')) clicks += counts[key];
      result.push({ linkId: idOf.get(codeKey), day, counts, clicks });
    }
  return result;
}

const idsOf = (rows) => new Map(rows.map((row) => [row.code_key, row.id]));

/** `tuples` (arrays of one row's values) into `table` with multi-row statements. */
function insertMany(db, table, columns, tuples) {
  const statement = (n) =>
    db.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(n)
        .fill(`(${columns.map(() => '?').join(', ')})`)
        .join(', ')}`,
    );
  const full = statement(SQLITE_ROWS_PER_STATEMENT);
  let at = 0;
  for (; at + SQLITE_ROWS_PER_STATEMENT <= tuples.length; at += SQLITE_ROWS_PER_STATEMENT)
    full.run(tuples.slice(at, at + SQLITE_ROWS_PER_STATEMENT).flat());
  if (at < tuples.length) statement(tuples.length - at).run(tuples.slice(at).flat());
}

/** Visits into a SQLite file (the store's own, opened beside it). `options`: visits, links, nowS, spanS. */
export function seedSqliteVisits(db, options) {
  const idOf = idsOf(db.prepare("SELECT id, code_key FROM links WHERE code_key LIKE 'v%'").all());
  const days = new Map();
  const rowColumns = ['link_id', 'first_at', 'last_at', 'visit_count', 'visits'];
  for (const rows of packedRows(options, days))
    db.transaction(() =>
      insertMany(
        db,
        'link_visit_rows',
        rowColumns,
        rows.map((row) => [idOf.get(row.codeKey), row.firstAt, row.lastAt, row.count, row.visits]),
      ),
    )();
  const linkDays = dayRows(days, idOf);
  db.transaction(() => {
    insertMany(
      db,
      'link_visit_counts',
      ['link_id', 'day', 'counts'],
      linkDays.map((d) => [d.linkId, d.day, JSON.stringify(d.counts)]),
    );
    const addClicks = db.prepare(
      `INSERT INTO link_click_days (link_id, day, clicks) VALUES (?, ?, ?)
       ON CONFLICT (link_id, day) DO UPDATE SET clicks = clicks + excluded.clicks`,
    );
    for (const d of linkDays) addClicks.run(d.linkId, d.day, d.clicks);
  })();
}

/** Visits into a PostgreSQL schema (through `client`, outside the store's pool). `options` as for SQLite. */
export async function seedPostgresVisits(client, schema, options) {
  const p = `${schema}.`;
  const idOf = idsOf((await client.query(`SELECT id, code_key FROM ${p}links WHERE code_key LIKE 'v%'`)).rows);
  const days = new Map();
  for (const rows of packedRows(options, days))
    await client.query(
      `INSERT INTO ${p}link_visit_rows (link_id, first_at, last_at, visit_count, visits)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::int[], $5::text[])`,
      [
        rows.map((row) => idOf.get(row.codeKey)),
        rows.map((row) => row.firstAt),
        rows.map((row) => row.lastAt),
        rows.map((row) => row.count),
        rows.map((row) => row.visits),
      ],
    );
  const linkDays = dayRows(days, idOf);
  for (let from = 0; from < linkDays.length; from += ROWS_PER_INSERT) {
    const chunk = linkDays.slice(from, from + ROWS_PER_INSERT);
    const values = [chunk.map((d) => d.linkId), chunk.map((d) => d.day)];
    await client.query(
      `INSERT INTO ${p}link_visit_counts (link_id, day, counts) SELECT * FROM unnest($1::bigint[], $2::int[], $3::jsonb[])`,
      [...values, chunk.map((d) => JSON.stringify(d.counts))],
    );
    await client.query(
      `INSERT INTO ${p}link_click_days AS d (link_id, day, clicks)
       SELECT id, date '1970-01-01' + day, clicks FROM unnest($1::bigint[], $2::int[], $3::bigint[]) AS c (id, day, clicks)
       ON CONFLICT (link_id, day) DO UPDATE SET clicks = d.clicks + EXCLUDED.clicks`,
      [...values, chunk.map((d) => d.clicks)],
    );
  }
}
