// `npm run bench:scale`, and the second step of `npm run bench` (bench/all.mjs): the figures of a
// server holding a million links, each printed beside its target with "meets" or "MISSES", on the
// built server. Not part of `npm test`: seeding takes a minute or two. What it measures:
//
// - list: `GET /api/v1/links` (an owner's first page, 20 links) at 1M links, 100k of them that
//   owner's, on SQLite and (with DATABASE_URL=postgres://…) PostgreSQL: p50/p99 of
//   SCALE_LIST_REQUESTS sequential requests after a warm-up; target p99 < 10 ms;
// - import and export: `scripts/measure-porting.mjs` (100,000 rows imported, RSS growth; 1,000,000
//   links exported as CSV and JSON, time and RSS growth); targets < 100 MB and < 10 s.
//
// Knobs: SCALE_RUNS=1 (runs of everything; each figure is printed per run), SCALE_ONLY=list or
// porting, SCALE_LIST_REQUESTS=300. The popup's figure is bench/popup-timing.mjs's, the step after
// this one in `npm run bench`.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openSqliteDatabase } from '../dist/server/stores/sqlite/sqlite-link-store.js';
import { startServer, waitUntilIdle } from '../scripts/server-process.mjs';

const env = process.env;
const RUNS = Number(env.SCALE_RUNS ?? 1);
const LIST_REQUESTS = Number(env.SCALE_LIST_REQUESTS ?? 300);
const ONLY = env.SCALE_ONLY;
const POSTGRES_URL = /^postgres(ql)?:\/\//.test(env.DATABASE_URL ?? '') ? env.DATABASE_URL : undefined;
const LINKS = 1_000_000;
const OWNER_KEY = `lk_${'S'.repeat(43)}`;
const OWNER_KEY_HASH = createHash('sha256').update(OWNER_KEY).digest('hex');
const DAY_MS = 86_400_000;
// Every tenth link is the owner's (owner 1); the rest belong to owner 2.
const ownerOf = (i) => (i % 10 === 0 ? 1 : 2);

function seedSqlite(path) {
  const db = openSqliteDatabase(path);
  db.pragma('synchronous = OFF'); // seeding only
  const now = Date.now();
  db.prepare("INSERT INTO owners (id, name, created_at) VALUES (1, 'owner', ?), (2, 'others', ?)").run(now, now);
  db.prepare('INSERT INTO api_keys (owner_id, key_hash, created_at) VALUES (1, ?, ?)').run(OWNER_KEY_HASH, now);
  const insert = db.prepare(
    `INSERT INTO links (code_key, code, original_url, created_at, expires_at, owner_id, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < LINKS; i++) {
      const code = `s${i.toString(36).padStart(6, '0')}`;
      const at = now - LINKS + i;
      insert.run(code, code, `https://example.com/articles/${i}?ref=scale`, at, now + 30 * DAY_MS, ownerOf(i), at);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return `sqlite:${path}`;
}

async function seedPostgres(schema) {
  const { createPostgresLinkStore } = await import('../dist/server/stores/postgres/postgres-link-store.js');
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    const store = await createPostgresLinkStore({ connectionString: POSTGRES_URL, schema });
    await store.close();
    await admin.query(
      `INSERT INTO ${schema}.owners (id, name, created_at) OVERRIDING SYSTEM VALUE
       VALUES (1, 'owner', now()), (2, 'others', now())`,
    );
    await admin.query(`INSERT INTO ${schema}.api_keys (owner_id, key_hash, created_at) VALUES (1, $1, now())`, [
      OWNER_KEY_HASH,
    ]);
    await admin.query(
      `INSERT INTO ${schema}.links (code_key, code, original_url, created_at, expires_at, owner_id, updated_at)
       SELECT c, c, 'https://example.com/articles/' || i || '?ref=scale', t, now() + interval '30 days',
              CASE WHEN i % 10 = 0 THEN 1 ELSE 2 END, t
       FROM generate_series(0, $1::int - 1) AS i,
            LATERAL (SELECT 's' || lpad(i::text, 7, '0') AS c, now() - ($1::int - i) * interval '1 ms' AS t) AS x`,
      [LINKS],
    );
    await admin.query(`VACUUM ANALYZE ${schema}.links`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** Drops the seeded schema, so runs leave nothing behind in the database. */
async function dropSchema(schema) {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await admin.end();
  }
}

/** p50 and p99 (ms) of `count` sequential first-page requests, after 30 unmeasured ones. */
async function listLatency(origin, count) {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(`${origin}/api/v1/links`, { headers: { 'X-API-Key': OWNER_KEY } });
    const body = await response.json();
    if (response.status !== 200 || body.data.links.length !== 20) throw new Error(`list answered ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 30; i++) await once();
  const times = [];
  for (let i = 0; i < count; i++) times.push(await once());
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

/** Runs scripts/measure-porting.mjs and hands back its lines. */
function measurePorting() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/measure-porting.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) => (code === 0 ? resolve(out.trim().split('\n')) : reject(new Error(`exit ${code}`))));
  });
}

const verdict = (ok) => (ok ? 'meets' : 'MISSES');

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'linklet-scale-'));
  const lines = [];
  const say = (line) => {
    lines.push(line);
    process.stdout.write(`${line}\n`);
  };
  try {
    if (ONLY !== 'porting') {
      const stores = [['sqlite', () => seedSqlite(join(dir, 'list.db'))]];
      if (POSTGRES_URL) stores.push(['postgres', () => seedPostgres(`linklet_scale_${process.pid}`)]);
      for (const [store, seed] of stores) {
        process.stderr.write(`seeding ${store} with ${LINKS.toLocaleString('en-US')} links… `);
        const databaseUrl = await seed();
        process.stderr.write('done\n');
        const server = await startServer(
          { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0' },
          { log: 'discard' },
        );
        await waitUntilIdle(server.pid); // its link cache warmed
        try {
          for (let run = 1; run <= RUNS; run++) {
            const { p50, p99 } = await listLatency(server.origin, LIST_REQUESTS);
            say(
              `list, ${store}, run ${run}: owner's first page at 1M links (100k theirs): p50 ${p50.toFixed(2)} ms, ` +
                `p99 ${p99.toFixed(2)} ms (target p99 < 10 ms: ${verdict(p99 < 10)})`,
            );
          }
        } finally {
          await server.stop();
          if (store === 'postgres') await dropSchema(`linklet_scale_${process.pid}`);
        }
      }
    }
    if (ONLY !== 'list') {
      for (let run = 1; run <= RUNS; run++) {
        for (const line of await measurePorting()) {
          const growth = Number(/grew ([\d.]+) MiB/.exec(line)?.[1]);
          const seconds = Number(/in ([\d.]+) s/.exec(line)?.[1]);
          let target = '';
          // The target is in MB (10^6 bytes); the line says MiB (2^20 bytes): 100 MB is 95.4 MiB.
          if (line.startsWith('import'))
            target = ` (target growth < 100 MB, 95.4 MiB: ${verdict(growth * 2 ** 20 < 100e6)})`;
          if (line.startsWith('export csv')) target = ` (target < 10 s: ${verdict(seconds < 10)}, memory flat)`;
          if (line.startsWith('export json')) target = ' (no target: beside the CSV for comparison)';
          say(`${line}, run ${run}${target}`);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${lines.join('\n')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
