// `npm run bench:allocations` (alone: `node bench/allocations.mjs` after `npm run build:server`;
// about a minute, not part of `npm run bench`): what a request allocates, Linklet against the
// bare node:http baseline, by function. Every byte allocated on the event loop is a byte the
// young generation's collector goes through; the CPU figures show that cost only mixed with the
// rest, `bench:profile` by the collector's own names, and neither says who allocated.
//
// Each server runs with `bench/allocation-sampler.mjs` loaded (V8's sampling heap profiler over
// the in-process inspector, objects already collected counted too) and answers at full speed
// (50 keep-alive connections) in interleaved rounds; a function's figure is the bytes sampled in
// it (its own allocations and what V8 inlined into it) over the requests answered meanwhile, the
// median of the rounds. Knobs: BENCH_LOAD=redirect (one hot code) or create (POST
// /api/v1/shorten, generated codes), BENCH_ROUNDS=3, BENCH_SECONDS=4.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { SERVER_MAIN, SERVER_NODE_OPTIONS, startServer, waitUntilIdle } from '../scripts/server-process.mjs';
import { seedSqliteLinks } from './seed-sqlite.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LOAD = process.env.BENCH_LOAD ?? 'redirect';
if (LOAD !== 'redirect' && LOAD !== 'create') throw new Error(`BENCH_LOAD=${LOAD}: use redirect or create`);
const SAMPLER = pathToFileURL(resolve('bench/allocation-sampler.mjs')).href;

const dir = mkdtempSync(join(tmpdir(), 'linklet-allocations-'));
const database = join(dir, 'links.db');
seedSqliteLinks(database, 1000, (i) => ({ code: `k${String(i).padStart(7, '0')}`, url: `https://example.com/${i}` }));

/** The request autocannon sends: a hot code's redirect, or a create of a generated code. */
const requestOf = (origin, isLinklet) =>
  LOAD === 'redirect'
    ? { url: `${origin}/${isLinklet ? 'k0000001' : ''}` }
    : {
        url: `${origin}/api/v1/shorten`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ original_url: 'https://example.com/articles/2026/11/a-page?utm_source=newsletter' }),
      };

/** A server with the sampler loaded, warmed up. */
async function started(script) {
  const isLinklet = script === SERVER_MAIN;
  const name = isLinklet ? 'linklet' : 'baseline';
  const profile = join(dir, `${name}.heapprofile`);
  const server = await startServer(
    { DATABASE_URL: `sqlite:${database}`, HOST: '127.0.0.1', ALLOCATION_PROFILE: profile },
    {
      script,
      log: { file: join(dir, `${name}.log`) },
      nodeOptions: [`--import=${SAMPLER}`, ...(isLinklet ? SERVER_NODE_OPTIONS : [])],
    },
  );
  const request = requestOf(server.origin, isLinklet);
  await autocannon({ ...request, connections: 50, duration: 5 });
  return { server, request, profile, rounds: [] };
}

const ROOT = `${pathToFileURL(process.cwd()).href}/`;
/** A function's name as a row shows it: Linklet's files by their path under dist/, Node's by theirs. */
function nameOf({ functionName, url, lineNumber }) {
  const file = url
    .replace(`${ROOT}dist/`, '')
    .replace(ROOT, '')
    .replace(/^node:internal\//, '');
  return `${functionName || '(anonymous)'} ${file || '(V8)'}:${lineNumber + 1}`;
}

/** One round: bytes allocated per request, by function, while the server answers at full speed. */
async function roundOf({ server, request, profile }) {
  await waitUntilIdle(server.pid);
  rmSync(profile, { force: true });
  process.kill(server.pid, 'SIGUSR2');
  await new Promise((done) => setTimeout(done, 200)); // sampling started
  const result = await autocannon({ ...request, connections: 50, duration: SECONDS });
  process.kill(server.pid, 'SIGUSR2');
  for (let tries = 0; !existsSync(profile) && tries < 200; tries++) await new Promise((done) => setTimeout(done, 50));
  if (!existsSync(profile)) throw new Error(`${request.url}: the server wrote no allocation profile within 10 s`);
  const answered = LOAD === 'redirect' ? result['3xx'] : result['2xx'];
  if (result.errors > 0 || answered !== result.requests.total)
    throw new Error(`${request.url}: not every answer was a ${LOAD === 'redirect' ? 'redirect' : 'create'}`);
  const perRequest = new Map();
  const walk = (node) => {
    if (node.selfSize > 0) {
      const name = nameOf(node.callFrame);
      perRequest.set(name, (perRequest.get(name) ?? 0) + node.selfSize / result.requests.total);
    }
    for (const child of node.children) walk(child);
  };
  walk(JSON.parse(readFileSync(profile, 'utf8')).head);
  return { perRequest, rate: result.requests.total / SECONDS };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sum = (values) => [...values].reduce((a, b) => a + b, 0);

const servers = [];
try {
  servers.push(await started('bench/baseline-server.mjs'), await started(SERVER_MAIN));
  for (let round = 0; round < ROUNDS; round++) {
    process.stderr.write(`round ${round + 1}… `);
    for (const contender of servers) contender.rounds.push(await roundOf(contender));
  }
  process.stderr.write('done\n');
  const [baseline, linklet] = servers.map(({ rounds }) => {
    const keys = new Set(rounds.flatMap((round) => [...round.perRequest.keys()]));
    return {
      perRequest: new Map([...keys].map((key) => [key, median(rounds.map((round) => round.perRequest.get(key) ?? 0))])),
      totals: rounds.map((round) => sum(round.perRequest.values())),
      rate: median(rounds.map((round) => round.rate)),
    };
  });
  const bytes = (n) => Math.round(n).toLocaleString('en-US');
  const what = LOAD === 'redirect' ? "A hot redirect's" : "A create's";
  console.log(
    `\n${what} allocations on the event loop, bytes per request (V8's sampling heap profiler; ${ROUNDS} interleaved ` +
      `round${ROUNDS === 1 ? '' : 's'} of ${SECONDS} s at full speed, 50 connections; medians): baseline ` +
      `${bytes(median(baseline.totals))} at ${Math.round(baseline.rate)}/s, Linklet ${bytes(median(linklet.totals))} at ` +
      `${Math.round(linklet.rate)}/s (rounds: ${baseline.totals.map(bytes).join(', ')} and ${linklet.totals.map(bytes).join(', ')})\n`,
  );
  const names = [...new Set([...baseline.perRequest.keys(), ...linklet.perRequest.keys()])];
  const difference = (name) => (linklet.perRequest.get(name) ?? 0) - (baseline.perRequest.get(name) ?? 0);
  names.sort((x, y) => Math.abs(difference(y)) - Math.abs(difference(x)));
  console.log('| function (largest differences) | baseline | Linklet | difference |\n| --- | ---: | ---: | ---: |');
  for (const name of names.slice(0, 20))
    console.log(
      `| \`${name.replace(/\|/g, '\\|')}\` | ${bytes(baseline.perRequest.get(name) ?? 0)} | ` +
        `${bytes(linklet.perRequest.get(name) ?? 0)} | ${difference(name) > 0 ? '+' : ''}${bytes(difference(name))} |`,
    );
} finally {
  for (const { server } of servers) await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
