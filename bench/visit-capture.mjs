// `node bench/visit-capture.mjs` (after `npm run build:server`): what capturing visits costs the
// main thread, in process, without HTTP or a load generator on the same cores. A click counter
// with visits takes BENCH_RATE (20,000) clicks a second over 1,000 links for BENCH_SECONDS (30)
// beats, each with fresh header strings as a request's are (300 User-Agents, 50 referrers, a
// country header, DNT on one in fifty), on a clock moved a second per beat so visits are held
// 5 s as under load; its batches are handed over as the SQLite store hands them to its writer
// thread (nothing is written). Prints CPU per visit (the strings made here included) and the
// largest V8 heap after a beat. `BENCH_DIST` points at another build to compare. Not part of `npm test`.
const dist = process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname;
const { createClickCounter } = await import(`${dist}/server/clicks/click-counter.js`);
const { createVisitParser } = await import(`${dist}/server/clicks/visit-parser.js`);
const { sqliteClickBatch } = await import(`${dist}/server/stores/sqlite/sqlite-clicks.js`);

const rate = Number(process.env.BENCH_RATE ?? 20_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 30);
const agents = Array.from(
  { length: 300 },
  (_, i) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + (i % 40)}.0.${i}.0 Safari/537.36`,
);
const referers = Array.from({ length: 50 }, (_, i) => `https://site${i}.example.com/page/${i}`);
let clock = Date.UTC(2026, 0, 31, 12);
let handed = 0;
const counter = createClickCounter({
  write: async (batch) => {
    handed += sqliteClickBatch(batch).visits?.at.length ?? 0;
  },
  logger: { info() {}, warn() {}, error() {} },
  writeEveryMs: 3_600_000, // beats are driven below
  parseVisit: createVisitParser(),
  now: () => clock,
});
let maxHeap = 0;
const started = process.cpuUsage();
for (let beat = 0; beat < seconds; beat++) {
  for (let i = 0; i < rate; i++) {
    // A copy of each string, as each request holds its own.
    const userAgent = `${agents[i % agents.length]} `.trimEnd();
    const referer = `${referers[i % referers.length]} `.trimEnd();
    counter.count(`k${i % 1000}`, clock + (i % 1000), { referer, userAgent, country: 'KR', private: i % 50 === 0 });
  }
  clock += 1000;
  await counter.flush();
  maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed);
}
await counter.close();
const cpu = process.cpuUsage(started);
console.log(
  JSON.stringify({
    dist,
    visits: rate * seconds,
    handed,
    usPerVisit: Number(((cpu.user + cpu.system) / (rate * seconds)).toFixed(2)),
    maxHeapMB: Math.round(maxHeap / 1048576),
  }),
);
