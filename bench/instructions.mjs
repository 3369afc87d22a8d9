// `npm run bench:instructions` (alone: `node bench/instructions.mjs` after `npm run build:server`;
// about 2.5 minutes a server, not part of `npm run bench`): the instructions a hot redirect costs,
// Linklet against the bare node:http baseline, counted by valgrind rather than timed. CPU time per
// request on a shared two-vCPU VM moved 4× between hours of one day, so a lever of a few per cent
// could not be told from the host; an instruction count does not move with the host.
//
// Each server runs once under `valgrind --tool=callgrind --separate-threads=yes`, answering one
// hot code at a fixed rate: WARM requests, then PARTS windows of MEASURED requests, the counters
// dumped (`callgrind_control --dump`) at the end of each, so a window's figure is what its
// requests cost in one process, per thread, user space only (the kernel's part, the socket
// writes, is not counted). Figures are medians of the windows: a window now and then runs far
// over the others (V8 compiling, or a major collection, in it), and the threads other than the
// event loop (V8's helpers, Linklet's SQLite writer) move by thousands of instructions a request
// between windows, so the event loop and the other threads are printed apart, each with its
// range. Two runs of the same build gave event-loop medians 0.1 % apart (Linklet) and 2.2 %
// (the baseline). Knobs, all optional:
//
//   BENCH_RATE=1000        redirects per second (under cachegrind a server answered about 2,000 at most)
//   BENCH_WARM=30000       requests before the first window (the JIT settles within them)
//   BENCH_MEASURED=20000   requests per window
//   BENCH_PARTS=3          windows
//   BENCH_VARIANTS=…       Linklet variants to add, comma-separated: log-off, counting-off, visits-off,
//                          webhook-clicked
//
// At a fixed 1,000 redirects a second what a server does once a second or once a millisecond
// (the click counter's beat, the access line's time) is shared by far fewer requests than at full
// speed, so Linklet's figure is somewhat high.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { SERVER_MAIN, SERVER_NODE_OPTIONS, startServer } from '../scripts/server-process.mjs';
import { seedSqliteLinks } from './seed-sqlite.mjs';
import { seedWebhookSqlite } from './webhook-scenarios.mjs';

const env = process.env;
const RATE = Number(env.BENCH_RATE ?? 1000);
const WARM = Number(env.BENCH_WARM ?? 30_000);
const MEASURED = Number(env.BENCH_MEASURED ?? 20_000);
const PARTS = Number(env.BENCH_PARTS ?? 3);
const VARIANTS = {
  'log-off': { name: 'Linklet, ACCESS_LOG=off', env: { ACCESS_LOG: 'off' } },
  'counting-off': { name: 'Linklet, CLICK_COUNTING=off', env: { CLICK_COUNTING: 'off' } },
  'visits-off': { name: 'Linklet, VISITS=off', env: { VISITS: 'off' } },
  // The administrator's endpoint takes `link.clicked` (a receiver in this process answers 204):
  // what telling every click costs, deliveries included (bench/webhook-scenarios.mjs).
  'webhook-clicked': {
    name: 'Linklet, a link.clicked webhook',
    env: { BLOCK_PRIVATE_TARGETS: 'off' },
    webhook: true,
  },
};
// The server's own HOST (its listening address) names valgrind's control pipes, so
// callgrind_control is given the same to find them.
const HOST = '127.0.0.1';

if (spawnSync('valgrind', ['--version']).error || spawnSync('callgrind_control', ['--version']).error) {
  process.stderr.write('valgrind is not installed: apt-get install valgrind (Debian), then run this again.\n');
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'linklet-instructions-'));
const database = join(dir, 'links.db');
seedSqliteLinks(database, 1000, (i) => ({ code: `k${String(i).padStart(7, '0')}`, url: `https://example.com/${i}` }));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Per window, instructions per request of the event loop's thread and of all the others. */
async function windowsOf({ script, env: serverEnv = {}, webhook }, label) {
  const out = join(dir, `${label}.callgrind`);
  let db = database;
  if (webhook) {
    db = join(dir, `${label}.db`);
    copyFileSync(database, db);
    await seedWebhookSqlite(db, { webhook });
  }
  const vgdbPrefix = join(dir, `${label}-vgdb`);
  const server = await startServer(
    { DATABASE_URL: `sqlite:${db}`, HOST, ...serverEnv },
    {
      script,
      log: { file: join(dir, `${label}.log`) },
      under: [
        'valgrind',
        '--tool=callgrind',
        '--separate-threads=yes',
        `--vgdb-prefix=${vgdbPrefix}`,
        `--callgrind-out-file=${out}.%p`,
      ],
      nodeOptions: script === SERVER_MAIN ? SERVER_NODE_OPTIONS : [],
      startTimeoutMs: 300_000,
    },
  );
  const url = `${server.origin}/${script === SERVER_MAIN ? 'k0000000' : ''}`;
  const send = async (amount) => {
    const result = await autocannon({ url, connections: 10, amount, overallRate: RATE, timeout: 60 });
    if (result.errors > 0 || result['3xx'] !== amount) throw new Error(`${label}: not every request was a redirect`);
  };
  const dump = () =>
    execFileSync('callgrind_control', [`--vgdb-prefix=${vgdbPrefix}`, '--dump', String(server.pid)], {
      env: { PATH: env.PATH ?? '', HOST },
      stdio: 'ignore',
    });
  try {
    await send(WARM);
    dump(); // what came before the first window, left out
    for (let part = 0; part < PARTS; part++) {
      await send(MEASURED);
      dump();
    }
  } finally {
    await server.stop();
  }
  // `<out>.<pid>.<dump>-<thread>`: thread 01 is the main thread, which runs the event loop.
  const windows = Array.from({ length: PARTS }, () => ({ loop: 0, others: 0 }));
  for (const file of readdirSync(dir)) {
    const match = /\.callgrind\.\d+\.(\d+)-(\d+)$/.exec(file);
    if (!match || !file.startsWith(`${label}.callgrind.`) || Number(match[1]) < 2) continue;
    const window = windows[Number(match[1]) - 2];
    if (window === undefined) continue;
    const total = Number(/^summary:\s+(\d+)/m.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? 0) / MEASURED;
    if (Number(match[2]) === 1) window.loop += total;
    else window.others += total;
  }
  if (windows.some((window) => window.loop === 0)) throw new Error(`${label}: callgrind wrote no dump of a window`);
  return windows;
}

const contenders = [
  { name: 'bare node:http 302 (baseline)', script: 'bench/baseline-server.mjs' },
  { name: 'Linklet, as `npm start` runs it', script: SERVER_MAIN },
  ...(env.BENCH_VARIANTS ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean)
    .map((id) => {
      const variant = VARIANTS[id];
      if (variant === undefined)
        throw new Error(`BENCH_VARIANTS: ${id} is none of ${Object.keys(VARIANTS).join(', ')}`);
      return { ...variant, script: SERVER_MAIN };
    }),
];
try {
  const figures = [];
  for (const [at, contender] of contenders.entries()) {
    process.stderr.write(`${contender.name}… `);
    const windows = await windowsOf(contender, `server-${at}`);
    const loops = windows.map((window) => window.loop);
    const others = windows.map((window) => window.others);
    const totals = windows.map((window) => window.loop + window.others);
    figures.push({ loop: median(loops), loops, others: median(others), othersRange: others, total: median(totals) });
    process.stderr.write('done\n');
  }
  const [baseline] = figures;
  const whole = (n) => Math.round(n).toLocaleString('en');
  const range = (values) => `${whole(Math.min(...values))}–${whole(Math.max(...values))}`;
  console.log(
    `\nInstructions per redirect of one hot code (valgrind callgrind, user space), ${RATE} redirects/s, ` +
      `medians of ${PARTS} windows of ${MEASURED.toLocaleString('en')} after ${WARM.toLocaleString('en')}:\n`,
  );
  console.log(
    '| server | event loop (range) | other threads (range) | all | ratio, event loop | ratio, all |\n' +
      '| --- | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const [at, contender] of contenders.entries()) {
    const f = figures[at];
    console.log(
      `| ${contender.name} | ${whole(f.loop)} (${range(f.loops)}) | ${whole(f.others)} (${range(f.othersRange)}) | ` +
        `${whole(f.total)} | ${(baseline.loop / f.loop).toFixed(2)} | ${(baseline.total / f.total).toFixed(2)} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
