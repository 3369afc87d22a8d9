// `npm run bench` (after `npm run build:server`): every benchmark figure of the project in one
// run, each printed beside its baseline or target, in this order:
//
// 1. bench/run.mjs: redirects and creates against a bare node:http baseline (ratios, p99, CPU
//    per request, RSS), SQLite and, with DATABASE_URL=postgres://…, PostgreSQL;
// 2. bench/scale.mjs: a million links: the owner's first page of `GET /api/v1/links` (p99 < 10 ms),
//    a 100,000-row import (RSS growth < 100 MB) and a 1M-link CSV export (< 10 s), "meets" or
//    "MISSES" on each line;
// 3. bench/popup-timing.mjs, when it is there: the extension popup's time to its tab's URL (p95
//    beside its target, < 150 ms); on a host without Chromium it says why it skipped, and passes.
//
// Each step is its own process, so one step's heap and servers never weigh on the next; a step
// that fails does not stop the others, and the run exits non-zero if any failed. Each script
// still runs alone too (`npm run bench:scale`, `npm run bench:popup`), with the same knobs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const step = (name) => fileURLToPath(new URL(name, import.meta.url));
const steps = ['run.mjs', 'scale.mjs', 'popup-timing.mjs'].map(step).filter((path, at) => at < 2 || existsSync(path));

const failed = [];
for (const script of steps) {
  const started = performance.now();
  process.stdout.write(`\n== ${script.slice(script.lastIndexOf('bench/'))} ==\n`);
  const { status, signal } = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  process.stdout.write(`== ${script.slice(script.lastIndexOf('bench/'))}: ${minutes} min ==\n`);
  if (status !== 0) failed.push(`${script} (${signal ?? `exit ${status}`})`);
}
if (failed.length > 0) {
  console.error(`Failed: ${failed.join(', ')}; the figures above are from the steps that finished.`);
  process.exit(1);
}
