import { AGENTS, COUNTRIES, REFERRERS } from './visit-mix.mjs';

// Visits written straight into the database with SQL (`BENCH_SEED=sql` of bench/visits.mjs): the
// server's path writes about 2,000 of the bench's spread-out visits a second, so 10M of them would
// take well over an hour; SQL makes them in minutes. The same mix as bench/visits.mjs's `visitAt`
// (the busiest link one time in ten, four User-Agents, six referrers, nine countries, DNT one in
// twenty, a bot one in fifty, times over the last 89 days), then the daily counts per dimension
// and the daily clicks the server would have added for them, in one pass per dimension. A
// batch of the server adds up one second of clicks, so these fully summed days are what a real
// database holds, where the store-written bench's (each batch spread over 90 days) hold more rows.

const CHUNK = 1_000_000;
const SPAN_S = 89 * 86_400;

/** Each User-Agent with its index first: the key the SQL joins on. */
const AGENT_ROWS = AGENTS.map((agent, index) => [index, ...agent]);

const quote = (value) => (value === null ? 'NULL' : `'${value}'`);
const agentsValues = AGENT_ROWS.map((row) => `(${row.map((v) => (typeof v === 'number' ? v : quote(v))).join(', ')})`);
const namedValues = (names) => names.map((name, i) => `(${i}, ${quote(name)})`).join(', ');

/** The SELECT list of one visit `i` of the sequence `s`, over the agents `a`, referrers `r`, countries `c`. */
const visitColumns = (random) => `
  CASE WHEN s.i % 20 = 0 THEN NULL ELSE r.name END, CASE WHEN s.i % 20 = 0 THEN NULL ELSE c.name END,
  CASE WHEN s.i % 20 = 0 THEN NULL ELSE a.ua END, CASE WHEN s.i % 20 = 0 THEN NULL ELSE a.browser END,
  CASE WHEN s.i % 20 = 0 THEN NULL ELSE a.os END, CASE WHEN s.i % 20 = 0 THEN NULL ELSE a.device END,
  ${random('s.i % 50 = 0')}`;

/** The daily counts per dimension and the daily clicks of every visit in the tables. */
const talliesSql = (day, bot, prefix = '') => `
  INSERT INTO ${prefix}link_visit_days (link_id, day, dimension, name, clicks)
  ${['referrer', 'country', 'browser', 'os', 'device']
    .map(
      (d) =>
        `SELECT link_id, ${day}, '${d}', coalesce(${d}, 'unknown'), count(*)
         FROM ${prefix}link_visits WHERE NOT ${bot} GROUP BY 1, 2, 4`,
    )
    .join(' UNION ALL ')}
  UNION ALL SELECT link_id, ${day}, 'bots', '', count(*) FROM ${prefix}link_visits WHERE ${bot} GROUP BY 1, 2`;

/** Visits into a SQLite file (the store's own, opened beside it). */
export function seedSqliteVisits(db, { visits, links, nowS }) {
  const insert = db.prepare(`
    WITH RECURSIVE s(i, n) AS (SELECT @from, 0 UNION ALL
        SELECT i + 1, CASE WHEN (i + 1) % 10 = 0 THEN 0 ELSE 1 + abs(random()) % (@links - 1) END FROM s WHERE i + 1 < @to),
      a(k, ua, browser, os, device) AS (VALUES ${agentsValues.join(', ')}),
      r(k, name) AS (VALUES ${namedValues(REFERRERS)}),
      c(k, name) AS (VALUES ${namedValues(COUNTRIES)})
    INSERT INTO link_visits (link_id, at, referrer, country, user_agent, browser, os, device, bot)
    SELECT l.id, @nowS - abs(random()) % ${SPAN_S}, ${visitColumns((bot) => bot)}
    FROM s JOIN a ON a.k = s.i % 4 JOIN r ON r.k = s.i % 6 JOIN c ON c.k = s.i % 9
    JOIN links l ON l.code_key = 'v' || printf('%06d', s.n)`);
  for (let from = 0; from < visits; from += CHUNK)
    db.transaction(() => insert.run({ from, to: Math.min(visits, from + CHUNK), nowS, links }))();
  db.transaction(() => {
    db.exec(talliesSql('at / 86400', 'bot'));
    db.exec(`INSERT INTO link_click_days (link_id, day, clicks)
      SELECT link_id, at / 86400, count(*) FROM link_visits WHERE NOT bot GROUP BY 1, 2`);
  })();
}

/** Visits into a PostgreSQL schema (through `client`, outside the store's pool). */
export async function seedPostgresVisits(client, schema, { visits, links, nowS }) {
  const p = `${schema}.`;
  // Arrays, not joins: the planner cannot be trusted to evaluate random() once per row in a join.
  const array = (values, type) => `(ARRAY[${values.map(quote).join(', ')}]::${type}[])`;
  const column = (k) =>
    array(
      AGENT_ROWS.map((row) => row[k]),
      'text',
    );
  const pick = (values, k) => `CASE WHEN s.i % 20 = 0 THEN NULL ELSE ${values}[s.i % ${k} + 1] END`;
  for (let from = 0; from < visits; from += CHUNK) {
    await client.query(
      `WITH ids AS (SELECT array_agg(id ORDER BY code_key) AS id FROM ${p}links WHERE code_key LIKE 'v%')
      INSERT INTO ${p}link_visits (link_id, at, referrer, country, user_agent, browser, os, device, bot)
      SELECT ids.id[CASE WHEN s.i % 10 = 0 THEN 1 ELSE 2 + floor(random() * ($4::int - 1))::int END],
        to_timestamp($3::bigint - floor(random() * ${SPAN_S})),
        ${pick(array(REFERRERS, 'text'), 6)}, ${pick(array(COUNTRIES, 'text'), 9)},
        ${pick(column(1), 4)}, ${pick(column(2), 4)}, ${pick(column(3), 4)}, ${pick(column(4), 4)}, s.i % 50 = 0
      FROM generate_series($1::bigint, $2::bigint - 1) AS s(i), ids`,
      [from, Math.min(visits, from + CHUNK), nowS, links],
    );
  }
  await client.query(talliesSql("(at AT TIME ZONE 'UTC')::date", 'bot', p));
  await client.query(`INSERT INTO ${p}link_click_days AS d (link_id, day, clicks)
    SELECT link_id, (at AT TIME ZONE 'UTC')::date, count(*) FROM ${p}link_visits WHERE NOT bot GROUP BY 1, 2
    ON CONFLICT (link_id, day) DO UPDATE SET clicks = d.clicks + EXCLUDED.clicks`);
}
