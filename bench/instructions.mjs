// `npm run bench:instructions` (alone: `node bench/instructions.mjs` after `npm run build:server`;
// about 3 minutes and 1.5 more per variant, not part of `npm run bench`): the instructions a hot redirect costs, Linklet
// against the bare node:http baseline, counted by valgrind rather than timed. CPU time per
// request on a shared two-vCPU VM moved 4× between hours of one day, so a lever of a few per cent
// could not be told from the host; an instruction count does not move with the host. Each server
// runs under `valgrind --tool=cachegrind` twice, answering one hot code at a fixed rate: WARM
// requests, then WARM + MEASURED; the difference of the two totals over MEASURED is what one
// redirect costs once the JIT has settled (every thread in user space; the kernel's part, the
// socket writes, is not counted). Knobs, all optional:
//
//   BENCH_RATE=1000        redirects per second (a server under valgrind answers about 2,000)
//   BENCH_WARM=20000       requests before the measured ones
//   BENCH_MEASURED=60000   requests measured
//   BENCH_VARIANTS=…       Linklet variants to add, comma-separated: log-off, counting-off, visits-off
//
// At a fixed 1,000 redirects a second what a server does once a second or once a millisecond
// (the click counter's beat, the access line's time) is shared by far fewer requests than at full
// speed, so Linklet's figure is somewhat high; the same runs repeat within about ±3 %.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { SERVER_MAIN, SERVER_NODE_OPTIONS, startServer } from '../scripts/server-process.mjs';
import { seedSqliteLinks } from './seed-sqlite.mjs';

const env = process.env;
const RATE = Number(env.BENCH_RATE ?? 1000);
const WARM = Number(env.BENCH_WARM ?? 20_000);
const MEASURED = Number(env.BENCH_MEASURED ?? 60_000);
const VARIANTS = {
  'log-off': { name: 'Linklet, ACCESS_LOG=off', env: { ACCESS_LOG: 'off' } },
  'counting-off': { name: 'Linklet, CLICK_COUNTING=off', env: { CLICK_COUNTING: 'off' } },
  'visits-off': { name: 'Linklet, VISITS=off', env: { VISITS: 'off' } },
};

if (spawnSync('valgrind', ['--version']).error) {
  process.stderr.write('valgrind is not installed: apt-get install valgrind (Debian), then run this again.\n');
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'linklet-instructions-'));
const database = join(dir, 'links.db');
seedSqliteLinks(database, 1000, (i) => ({ code: `k${String(i).padStart(7, '0')}`, url: `https://example.com/${i}` }));

/** Instructions a server ran in all, started under cachegrind and sent `amount` redirects. */
async function instructionsFor({ script, env: serverEnv = {} }, amount, label) {
  const out = join(dir, `${label}-${amount}.cachegrind`);
  const server = await startServer(
    { DATABASE_URL: `sqlite:${database}`, HOST: '127.0.0.1', ...serverEnv },
    {
      script,
      log: { file: join(dir, `${label}.log`) },
      under: ['valgrind', '--tool=cachegrind', '--cache-sim=no', `--cachegrind-out-file=${out}`],
      nodeOptions: script === SERVER_MAIN ? SERVER_NODE_OPTIONS : [],
      startTimeoutMs: 300_000,
    },
  );
  const url = `${server.origin}/${script === SERVER_MAIN ? 'k0000000' : ''}`;
  const result = await autocannon({ url, connections: 10, amount, overallRate: RATE, timeout: 60 });
  if (result.errors > 0 || result['3xx'] !== amount) throw new Error(`${label}: not every request was a redirect`);
  await server.stop();
  const total = /summary:\s+(\d+)/.exec(readFileSync(out, 'utf8'))?.[1];
  if (total === undefined) throw new Error(`${label}: cachegrind wrote no total to ${out}`);
  return Number(total);
}

/** One server's instructions per redirect: the two runs' difference over the measured requests. */
async function perRedirect(contender, label) {
  const [warm, both] = await Promise.all([
    instructionsFor(contender, WARM, `${label}-warm`),
    instructionsFor(contender, WARM + MEASURED, `${label}-both`),
  ]);
  return (both - warm) / MEASURED;
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
    figures.push(await perRedirect(contender, `server-${at}`));
    process.stderr.write('done\n');
  }
  const [baseline] = figures;
  console.log(
    `\nInstructions per redirect of one hot code (valgrind cachegrind, user space, every thread), ` +
      `${RATE} redirects/s, ${MEASURED.toLocaleString('en')} measured after ${WARM.toLocaleString('en')}:\n`,
  );
  console.log('| server | instructions per redirect | ratio (baseline ÷ server) |\n| --- | ---: | ---: |');
  for (const [at, contender] of contenders.entries()) {
    const figure = figures[at];
    console.log(
      `| ${contender.name} | ${Math.round(figure).toLocaleString('en')} | ${(baseline / figure).toFixed(2)} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
