// `npm run bench:profile` (alone: `node bench/redirect-profile.mjs` after `npm run build:server`;
// about 1.5 minutes, not part of `npm run bench`; it needs Linux perf: `apt-get install linux-perf`):
// where a hot redirect's event loop spends what the bare node:http baseline does not, by name.
// The CPU figures say how much more Linklet spends; `bench:instructions` counts it apart from the
// host; neither says on what. A V8 CPU profile charges a thread's time waiting inside the socket
// write to that write, and callgrind cannot name the code V8 generates. `perf record` samples the
// kernel as well, and with `--perf-basic-prof` names each function V8 compiled.
//
// Each server runs with `--perf-basic-prof` and answers one hot code at full speed (50 keep-alive
// connections, as `npm run bench`'s scenario), both started and warmed up, then in interleaved
// rounds while `perf record` samples its main thread (the event loop's: parsing, answering,
// logging). A symbol's figure is its samples over the redirects answered meanwhile, in µs of the
// thread's CPU per redirect, the median of the rounds. It prints both servers' figures by kind
// (kernel, V8's runtime, Linklet's JavaScript, Node's, inline caches, …) and the symbols whose
// difference is largest. Knobs: BENCH_ROUNDS=3, BENCH_SECONDS=8, BENCH_PERF_HZ=2000.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { SERVER_MAIN, SERVER_NODE_OPTIONS, startServer, waitUntilIdle } from '../scripts/server-process.mjs';
import { seedSqliteLinks } from './seed-sqlite.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const HZ = Number(process.env.BENCH_PERF_HZ ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

if (spawnSync('perf', ['--version']).error) {
  process.stderr.write('Linux perf is not installed: apt-get install linux-perf (Debian), then run this again.\n');
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'linklet-profile-'));
const database = join(dir, 'links.db');
seedSqliteLinks(database, 1000, (i) => ({ code: `k${String(i).padStart(7, '0')}`, url: `https://example.com/${i}` }));

/** What kind of work a symbol of `perf report` is, by its name; the kinds a reader can act on. */
function kindOf(symbol, inKernel) {
  if (inKernel) return 'kernel (socket writes, waking the client, the log file)';
  if (symbol.includes('/dist/server/')) return "Linklet's JavaScript";
  if (symbol.startsWith('JS:')) return "Node's JavaScript (http, streams, events)";
  if (symbol.startsWith('RegExp:')) return 'regular expressions';
  if (/^Builtins_\w*IC/.test(symbol)) return 'inline-cache misses (property access not compiled in)';
  if (/Scaveng|Heap|Evacuat|MarkCompact|Sweep|GarbageCollect/.test(symbol)) return 'garbage collection';
  if (symbol.startsWith('Builtins_')) return "V8's builtins (strings, maps, calls)";
  if (symbol.startsWith('v8::')) return "V8's runtime (flattening strings, allocating)";
  if (symbol.startsWith('node::') || symbol.startsWith('llhttp') || symbol.includes('Parser')) return "Node's C++";
  return 'C library and the rest';
}

/** A server started with `--perf-basic-prof`, warmed up, and the URL of its hot redirect. */
async function started(script, path) {
  const server = await startServer(
    { DATABASE_URL: `sqlite:${database}`, HOST: '127.0.0.1' },
    {
      script,
      log: { file: join(dir, `${script === SERVER_MAIN ? 'linklet' : 'baseline'}.log`) },
      // V8 would leave a log file per isolate in the working directory; they go with the rest.
      nodeOptions: [
        '--perf-basic-prof',
        '--no-logfile-per-isolate',
        `--logfile=${join(dir, 'v8.log')}`,
        ...(script === SERVER_MAIN ? SERVER_NODE_OPTIONS : []),
      ],
    },
  );
  const url = `${server.origin}${path}`;
  await autocannon({ url, connections: 50, duration: 5 });
  return { server, url, rounds: [] };
}

/** One round: µs of the main thread's CPU per redirect, by symbol, while it answers at full speed. */
async function roundOf({ server, url }) {
  await waitUntilIdle(server.pid);
  const data = join(dir, `${server.pid}.perf.data`);
  // `-t`: the main thread's id is the process's; other threads (V8's helpers, the SQLite writer) are left out.
  const perf = spawn('perf', ['record', '-F', String(HZ), '-t', String(server.pid), '-o', data], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 300)); // perf attached
  const result = await autocannon({ url, connections: 50, duration: SECONDS });
  perf.kill('SIGINT');
  await new Promise((resolve) => perf.once('close', resolve));
  if (result.errors > 0 || result['3xx'] !== result.requests.total)
    throw new Error(`${url}: not every answer was a redirect`);
  const report = execFileSync(
    'perf',
    ['report', '-i', data, '--no-children', '--sort', 'sym', '--stdio', '-n', '-g', 'none'],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const perRedirect = new Map();
  for (const line of report.split('\n')) {
    const match = /^\s*[\d.]+%\s+(\d+)\s+\[(.)\]\s+(.+?)\s*$/.exec(line);
    if (!match) continue;
    const key = `${match[2]} ${match[3]}`; // `k name` (kernel) or `. name`
    perRedirect.set(key, (perRedirect.get(key) ?? 0) + (Number(match[1]) / HZ / result.requests.total) * 1e6);
  }
  return { perRedirect, rate: result.requests.total / SECONDS };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sum = (values) => [...values].reduce((a, b) => a + b, 0);

/** Per key (a symbol, or a kind), the median over the rounds of each round's figure (0 where absent). */
function medians(rounds) {
  const keys = new Set(rounds.flatMap((round) => [...round.keys()]));
  return new Map([...keys].map((key) => [key, median(rounds.map((round) => round.get(key) ?? 0))]));
}

const servers = [];
try {
  servers.push(await started('bench/baseline-server.mjs', '/'), await started(SERVER_MAIN, '/k0000001'));
  for (let round = 0; round < ROUNDS; round++) {
    process.stderr.write(`round ${round + 1}… `);
    for (const contender of servers) contender.rounds.push(await roundOf(contender));
  }
  process.stderr.write('done\n');
  const [baseline, linklet] = servers.map(({ rounds }) => ({
    perRedirect: medians(rounds.map((round) => round.perRedirect)),
    total: median(rounds.map((round) => sum(round.perRedirect.values()))),
    rate: median(rounds.map((round) => round.rate)),
    rounds,
  }));
  const us = (n) => n.toFixed(2);
  console.log(
    `\nA hot redirect's event loop, µs of its CPU per redirect (perf record -F ${HZ}; ${ROUNDS} interleaved round${ROUNDS === 1 ? '' : 's'} ` +
      `of ${SECONDS} s at full speed, 50 connections; medians): baseline ${us(baseline.total)} at ` +
      `${Math.round(baseline.rate)}/s, Linklet ${us(linklet.total)} at ${Math.round(linklet.rate)}/s ` +
      `(rounds: ${baseline.rounds.map((r) => us(sum(r.perRedirect.values()))).join(', ')} and ` +
      `${linklet.rounds.map((r) => us(sum(r.perRedirect.values()))).join(', ')})\n`,
  );
  /** A round's figures added up by kind. */
  const byKind = (perRedirect) => {
    const kinds = new Map();
    for (const [key, value] of perRedirect) {
      const kind = kindOf(key.slice(2), key.startsWith('k'));
      kinds.set(kind, (kinds.get(kind) ?? 0) + value);
    }
    return kinds;
  };
  const [baseKinds, linkletKinds] = [baseline, linklet].map(({ rounds }) =>
    medians(rounds.map((round) => byKind(round.perRedirect))),
  );
  const kinds = [...new Set([...baseKinds.keys(), ...linkletKinds.keys()])];
  const difference = (a, b, key) => (b.get(key) ?? 0) - (a.get(key) ?? 0);
  kinds.sort((x, y) => difference(baseKinds, linkletKinds, y) - difference(baseKinds, linkletKinds, x));
  console.log('| kind | baseline µs | Linklet µs | difference |\n| --- | ---: | ---: | ---: |');
  for (const kind of kinds)
    console.log(
      `| ${kind} | ${us(baseKinds.get(kind) ?? 0)} | ${us(linkletKinds.get(kind) ?? 0)} | ${us(difference(baseKinds, linkletKinds, kind))} |`,
    );
  const symbols = [...new Set([...baseline.perRedirect.keys(), ...linklet.perRedirect.keys()])];
  symbols.sort(
    (x, y) =>
      difference(baseline.perRedirect, linklet.perRedirect, y) -
      difference(baseline.perRedirect, linklet.perRedirect, x),
  );
  console.log(
    '\n| symbol (largest differences) | baseline µs | Linklet µs | difference |\n| --- | ---: | ---: | ---: |',
  );
  // A key is `k name` (the kernel's) or `. name`; Linklet's files are shown by their path under dist/.
  const shown = (symbol) =>
    `\`${symbol
      .slice(2)
      .replace(/file:\/\/\/\S*?\/dist\//, '')
      .replace(/\|/g, '\\|')
      .slice(0, 80)}\`${symbol.startsWith('k') ? ' (kernel)' : ''}`;
  for (const symbol of symbols.slice(0, 20))
    console.log(
      `| ${shown(symbol)} | ${us(baseline.perRedirect.get(symbol) ?? 0)} | ` +
        `${us(linklet.perRedirect.get(symbol) ?? 0)} | ${us(difference(baseline.perRedirect, linklet.perRedirect, symbol))} |`,
    );
} finally {
  for (const { server } of servers) {
    await server.stop();
    rmSync(`/tmp/perf-${server.pid}.map`, { force: true }); // --perf-basic-prof's symbol file
  }
  rmSync(dir, { recursive: true, force: true });
}
