// `npm run bench:visits`: what visits cost at rest. 1M visits written the way the server writes
// them (click batches through the store, in time order), then: bytes on disk per visit, and the
// time of a stats query (the two reads `GET /api/v1/links/{code}/stats` makes) over 90 days,
// p50/p99, for the busiest link (10 % of the visits) and for a typical one. SQLite always;
// PostgreSQL too with DATABASE_URL=postgres://… (in a schema of its own, dropped after). Knobs:
// BENCH_VISITS=1000000, BENCH_LINKS=1000, BENCH_QUERIES=200, BENCH_SPAN_DAYS=89 (the days up to
// now the visits spread over: fewer, denser traffic), BENCH_SEED=store (or `sql`: the packed rows
// and daily counts inserted straight into the database, for 10M: `BENCH_VISITS=10000000
// BENCH_SEED=sql`; see visits-seed.mjs), BENCH_STORES=sqlite,postgres. Not part of `npm test`.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createPostgresLinkStore } from '../dist/server/stores/postgres/postgres-link-store.js';
import { createSqliteLinkStore } from '../dist/server/stores/sqlite/sqlite-link-store.js';
import { codeAt, visitSlices } from './visit-mix.mjs';
import { seedPostgresVisits, seedSqliteVisits } from './visits-seed.mjs';

const env = process.env;
const VISITS = Number(env.BENCH_VISITS ?? 1_000_000);
const LINKS = Number(env.BENCH_LINKS ?? 1000);
const QUERIES = Number(env.BENCH_QUERIES ?? 200);
const SEED = env.BENCH_SEED ?? 'store';
if (SEED !== 'store' && SEED !== 'sql') throw new Error('BENCH_SEED is `store` (the default) or `sql`');
const BATCH = 10_000;
const POSTGRES_URL = /^postgres(ql)?:\/\//.test(env.DATABASE_URL ?? '') ? env.DATABASE_URL : undefined;
const onStore = (store) => !env.BENCH_STORES || env.BENCH_STORES.split(',').includes(store);
const SPAN_DAYS = Number(env.BENCH_SPAN_DAYS ?? 89);
if (!(SPAN_DAYS > 0 && SPAN_DAYS <= 89)) throw new Error('BENCH_SPAN_DAYS is a number of days from over 0 to 89');
const NOW = Date.now();
const NOW_S = Math.floor(NOW / 1000);
/** The visits spread evenly over the last this many seconds: fewer, denser traffic and fuller stored rows. */
const SPAN_S = Math.floor(SPAN_DAYS * 86_400);
const TODAY = Math.floor(NOW / 86_400_000);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * The visits through the store's click batches, as the server writes them: in time order, each
 * batch the next `BATCH` visits. A server's batch holds one second's visits; at the bench's rates
 * (1M over 89 days: one visit in 8 s) a batch a second would take hours, and a stored row spans
 * a minute at most, so rows come out about as full (visits-seed.mjs packs a second at a time).
 */
async function writeThroughStore(store) {
  const slices = visitSlices({ visits: VISITS, links: LINKS, nowS: NOW_S, spanS: SPAN_S, size: BATCH });
  for (const visits of slices) {
    const counts = new Map();
    for (const visit of visits) if (!visit.bot) counts.set(visit.codeKey, (counts.get(visit.codeKey) ?? 0) + 1);
    await store.addClicks({ day: TODAY, codeKeys: [...counts.keys()], counts: [...counts.values()], visits });
  }
}

async function run(label, store, sizeOf, seedWithSql) {
  for (let i = 0; i < LINKS; i++) {
    const created = await store.create(
      {
        code: codeAt(i),
        codeKey: codeAt(i),
        originalUrl: `https://example.com/${i}`,
        createdAt: NOW - 100 * 86_400_000 + i,
        expiresAt: NOW + 86_400_000 * 30,
      },
      NOW - 100 * 86_400_000 + i,
    );
    if (!created.created) throw new Error('seed failed');
  }
  const before = await sizeOf();
  const started = performance.now();
  if (SEED === 'sql') await seedWithSql({ visits: VISITS, links: LINKS, nowS: NOW_S, spanS: SPAN_S });
  else await writeThroughStore(store);
  const writeSeconds = (performance.now() - started) / 1000;
  const after = await sizeOf();
  const timesOf = async (linkOf) => {
    const times = [];
    for (let q = 0; q < QUERIES; q++) {
      const i = linkOf();
      const t = performance.now();
      await Promise.all([
        store.clicksOf(codeAt(i), NOW - 100 * 86_400_000 + i, TODAY - 89),
        store.visitTalliesOf(codeAt(i), NOW - 100 * 86_400_000 + i, TODAY - 89, TODAY),
      ]);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99) };
  };
  const busiest = await timesOf(() => 0);
  const typical = await timesOf(() => 1 + Math.floor(Math.random() * (LINKS - 1)));
  const bytes = (after - before) / VISITS;
  console.log(
    `${label}: ${VISITS.toLocaleString('en')} visits over ${LINKS} links written (${SEED === 'sql' ? 'with SQL' : 'through the store'}) in ${writeSeconds.toFixed(1)} s ` +
      `(${Math.round(VISITS / writeSeconds).toLocaleString('en')} visits/s); ${bytes.toFixed(1)} bytes on disk per visit ` +
      `(User-Agent kept, indexes included)\n` +
      `  stats over 90 days, busiest link (~${(VISITS / 10).toLocaleString('en')} visits): p50 ${busiest.p50.toFixed(1)} ms, p99 ${busiest.p99.toFixed(1)} ms\n` +
      `  stats over 90 days, typical link (~${Math.round((VISITS * 0.9) / (LINKS - 1)).toLocaleString('en')} visits): p50 ${typical.p50.toFixed(2)} ms, p99 ${typical.p99.toFixed(2)} ms`,
  );
}

console.log(`${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}`);
if (onStore('sqlite')) {
  const dir = mkdtempSync(join(tmpdir(), 'linklet-bench-visits-'));
  try {
    const path = join(dir, 'visits.db');
    const store = createSqliteLinkStore(path);
    const sizeOf = async () => {
      const db = new Database(path);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      let size = statSync(path).size;
      try {
        size += statSync(`${path}-wal`).size;
      } catch {}
      return size;
    };
    await run('SQLite', store, sizeOf, async (options) => {
      const db = new Database(path);
      db.pragma('busy_timeout = 60000');
      try {
        seedSqliteVisits(db, options);
      } finally {
        db.close();
      }
    });
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (POSTGRES_URL && onStore('postgres')) {
  const schema = `linklet_bench_visits_${process.pid}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    const store = await createPostgresLinkStore({ connectionString: POSTGRES_URL, schema });
    const sizeOf = async () => {
      for (const table of ['link_visit_rows', 'link_visit_counts'])
        await admin.query(`VACUUM ANALYZE ${schema}.${table}`);
      const { rows } = await admin.query(
        `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS n FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
        [schema],
      );
      return Number(rows[0].n);
    };
    await run('PostgreSQL', store, sizeOf, (options) => seedPostgresVisits(admin, schema, options));
    await store.close();
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}
