// Measures what hostile imports cost a real server process (the built server: run
// `npm run build:server` first; or pass another build's main.js, e.g. main's, to compare), each on
// a fresh SQLite file, and prints the figures (docs/import-limits.md quotes them):
//
// - a 10 MiB CSV whose rows are all invalid (`x` lines), and a 10 MiB JSON array `[{…},1,1,…]`:
//   redirect latency (max and p99, from a prober in its own thread sending one redirect every
//   10 ms while the import runs), the import answer's size, the server's RSS growth;
// - with `--csv-fields`, only three 10 MiB Linklet CSVs whose one data record is a single huge
//   field: quoted doubled quotes (`"` + `""` × 5 Mi + `"`), unquoted, and a quote never closed;
// - six clients sending the JSON at once and never reading their answers: RSS growth;
// - links created through import in one minute under `RATE_LIMIT_PER_MINUTE=5`, sending files
//   of 50,000 valid rows as fast as the limit lets.
//
// RSS is read from /proc/<pid>/status every 20 ms; growth is the peak minus the RSS just before.
// Not part of `npm test`:
// `node scripts/measure-import-abuse.mjs [path/to/server/main.js] [--skip-six] [--only-limits] [--csv-fields]`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SERVER_MAIN, startServer } from './server-process.mjs';

const script = process.argv[2] && !process.argv[2].startsWith('--') ? resolve(process.argv[2]) : SERVER_MAIN;
const skipSix = process.argv.includes('--skip-six');
const csvFields = process.argv.includes('--csv-fields');
const onlyLimits = process.argv.includes('--only-limits');
const ADMIN = 'admin-key-for-measuring-abuse';
const BASE_URL = 'https://sho.rt';
const MiB = 1024 * 1024;
const FILE_BYTES = 10 * MiB - 64;

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** Samples the server's RSS while `work` runs; its result and the growth in MiB. */
async function withRss(pid, work) {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 20);
  const started = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - started) / 1000, growthMiB: (peak - before) / MiB };
  } finally {
    clearInterval(sampler);
  }
}

// The prober runs in its own thread, so this thread's uploads never delay its clock.
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const latencies = [];
let running = true;
parentPort.on('message', () => { running = false; });
const once = () => new Promise((done) => {
  const started = performance.now();
  const req = http.get(workerData.url, { agent }, (res) => {
    res.resume();
    res.on('end', () => done(performance.now() - started));
  });
  req.on('error', () => done(performance.now() - started));
});
(async () => {
  while (running) {
    latencies.push(await once());
    await new Promise((r) => setTimeout(r, 10));
  }
  parentPort.postMessage(latencies);
})();
`;

/** Redirect latencies (ms) of `url` sampled while `work` runs. */
async function probed(url, work) {
  const worker = new Worker(PROBER, { eval: true, workerData: { url } });
  await new Promise((done) => setTimeout(done, 200)); // a few quiet redirects first
  const result = await work();
  const latencies = await new Promise((done) => {
    worker.once('message', done);
    worker.postMessage('stop');
  });
  await worker.terminate();
  const sorted = [...latencies].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
  return { result, maxMs: sorted.at(-1) ?? 0, p99Ms: p99, count: sorted.length };
}

/** POSTs an import and reads the whole answer (or, with `read: false`, none of it). */
function postImport(origin, body, type, { read = true, key = ADMIN } = {}) {
  return new Promise((done, fail) => {
    const req = request(
      `${origin}/api/v1/links/import`,
      {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        if (!read) {
          res.pause(); // never read: the answer waits in the server
          done({ status: res.statusCode, bytes: 0, res });
          return;
        }
        const chunks = [];
        let bytes = 0;
        res.on('data', (chunk) => {
          bytes += chunk.length;
          if (chunks.length < 4) chunks.push(chunk); // enough for the counts at the start
        });
        res.on('end', () => done({ status: res.statusCode, bytes, head: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

const badCsv = () => `code,original_url\n${'x\n'.repeat((FILE_BYTES - 18) / 2)}`;
const badJson = () => `[{"code":"a","original_url":"https://example.com/"}${',1'.repeat((FILE_BYTES - 60) / 2)}]`;

const HEADER = 'code,original_url\n';
const fieldBytes = FILE_BYTES - HEADER.length - 3;
const hugeFieldCsvs = () => [
  ['10 MiB CSV, one quoted field of doubled quotes', `${HEADER}"${'""'.repeat(fieldBytes / 2)}"\n`, 'text/csv'],
  ['10 MiB CSV, one unquoted field', `${HEADER}${'a'.repeat(fieldBytes)}\n`, 'text/csv'],
  ['10 MiB CSV, a quote never closed', `${HEADER}"${'a'.repeat(fieldBytes)}\n`, 'text/csv'],
];

function validCsv(from, count) {
  const lines = ['code,original_url'];
  for (let i = from; i < from + count; i++) lines.push(`r${i.toString(36)},https://example.com/articles/${i}`);
  return `${lines.join('\n')}\n`;
}

const countOf = (head, name) => Number(new RegExp(`"${name}":(\\d+)`).exec(head)?.[1] ?? Number.NaN);
const fixed = (n) => n.toFixed(0);
const dir = mkdtempSync(join(tmpdir(), 'linklet-abuse-'));
let dbCount = 0;
const serve = (extra = {}) =>
  startServer(
    { DATABASE_URL: `sqlite:${join(dir, `${++dbCount}.db`)}`, API_KEY: ADMIN, BASE_URL, LOG_LEVEL: 'warn', ...extra },
    { script, log: 'discard' },
  );

console.log(`server: ${script}`);
try {
  for (const [name, body, type] of onlyLimits
    ? []
    : csvFields
      ? hugeFieldCsvs()
      : [
          ['10 MiB CSV of invalid rows', badCsv(), 'text/csv'],
          ['10 MiB JSON [{…},1,1,…]', badJson(), 'application/json'],
        ]) {
    const server = await serve();
    const made = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ original_url: 'https://example.com/probe', custom_code: 'probe' }),
    });
    if (made.status !== 201) throw new Error(`could not create the probe link: ${made.status}`);
    // The same prober with nothing else to do: what the machine itself adds to a redirect.
    const quiet = await probed(`${server.origin}/probe`, () => new Promise((done) => setTimeout(done, 3000)));
    const run = await withRss(server.pid, () =>
      probed(`${server.origin}/probe`, () => postImport(server.origin, body, type)),
    );
    const { result: probe } = run;
    console.log(
      `${name}: answered ${probe.result.status} in ${run.seconds.toFixed(1)} s, ${(probe.result.bytes / MiB).toFixed(2)} MiB ` +
        `(invalid ${countOf(probe.result.head, 'invalid')}); redirects meanwhile: ${probe.count}, max ${fixed(probe.maxMs)} ms, ` +
        `p99 ${fixed(probe.p99Ms)} ms (with no import: max ${fixed(quiet.maxMs)} ms, p99 ${fixed(quiet.p99Ms)} ms); ` +
        `server RSS grew ${fixed(run.growthMiB)} MiB`,
    );
    await server.stop();
  }

  if (!skipSix && !onlyLimits && !csvFields) {
    const server = await serve();
    const body = badJson();
    const run = await withRss(server.pid, async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => postImport(server.origin, body, 'application/json', { read: false })),
      );
      await new Promise((done) => setTimeout(done, 3000)); // the answers sit unread
      for (const answer of answers) answer.res.destroy();
      return answers.map((answer) => answer.status);
    });
    console.log(
      `six clients sending the JSON, never reading: answered ${run.result.join(',')} within ` +
        `${run.seconds.toFixed(1)} s; server RSS grew ${fixed(run.growthMiB)} MiB`,
    );
    await server.stop();
  }

  if (!csvFields) {
    const limited = await serve({ RATE_LIMIT_PER_MINUTE: '5' });
    const started = performance.now();
    let created = 0;
    let requests = 0;
    const statuses = [];
    for (let from = 0; performance.now() - started < 60_000; from += 50_000) {
      const answer = await postImport(limited.origin, validCsv(from, 50_000), 'text/csv');
      requests++;
      statuses.push(answer.status);
      if (answer.status === 200) created += countOf(answer.head, 'created');
      else if (answer.status === 429) await new Promise((done) => setTimeout(done, 1000));
    }
    const minutes = (performance.now() - started) / 60_000;
    console.log(
      `RATE_LIMIT_PER_MINUTE=5: ${created} links created through import in ${minutes.toFixed(2)} min ` +
        `(${fixed(created / Math.max(1, minutes))} a minute; ${requests} imports of 50,000 rows answered ` +
        `${[...new Set(statuses)].join('/')})`,
    );
    await limited.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
