// `npm run bench`: throughput of the real server against a bare node:http baseline, measured in
// the same run on the same machine, printed as ratios (Linklet / baseline). No thresholds: read
// the ratios, compare runs. Each server runs in its own process; autocannon drives it from here.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;

async function freePort() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  return port;
}

async function startProcess(args, env) {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  // Ready once it answers anything; gives up after 10 s so a broken build cannot hang the bench.
  for (let waited = 0; ; waited += 50) {
    if (child.exitCode !== null) throw new Error(`${args[0]} exited with ${child.exitCode}`);
    if (waited > 10_000) throw new Error(`${args[0]} did not answer on ${origin} within 10 s`);
    try {
      await fetch(origin, { redirect: 'manual' });
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { origin, stop: () => child.kill('SIGTERM') };
}

function load(options) {
  return autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
}

const postBody = () => JSON.stringify({ original_url: `https://example.com/${Math.random()}`, expire_duration: '24h' });

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'linklet-bench-'));
  const baseline = await startProcess(['bench/baseline-server.mjs'], {});
  const linklet = await startProcess(
    ['dist/server/main.js'],
    { DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' },
    'Linklet is serving',
  );
  try {
    const made = await fetch(`${linklet.origin}/api/v1/shorten`, { method: 'POST', body: postBody() });
    const { data } = await made.json();
    const rows = [];
    const scenarios = [
      ['redirect GET /{code}', (origin) => load({ url: `${origin}/${data.code}` })],
      [
        'create POST /api/v1/shorten',
        (origin) =>
          load({
            url: `${origin}/api/v1/shorten`,
            requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: postBody() }) }],
          }),
      ],
    ];
    for (const [name, run] of scenarios) {
      const base = await run(baseline.origin);
      const ours = await run(linklet.origin);
      const errors = ours.errors + ours.non2xx - (name.startsWith('redirect') ? (ours['3xx'] ?? 0) : 0);
      rows.push({
        scenario: name,
        'baseline req/s': Math.round(base.requests.average),
        'linklet req/s': Math.round(ours.requests.average),
        ratio: (ours.requests.average / base.requests.average).toFixed(2),
        'linklet p99 ms': ours.latency.p99,
        'baseline p99 ms': base.latency.p99,
        'linklet errors': errors,
      });
    }
    console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s per run, loopback, SQLite with synchronous=FULL\n`);
    console.table(rows);
  } finally {
    baseline.stop();
    linklet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
