// The first step of `npm run bench` (bench/all.mjs runs the rest after it; alone:
// `node bench/run.mjs` after `npm run build:server`): the built server against a bare node:http
// baseline, on this machine, in one run. Every scenario runs against both, interleaved, for
// several rounds; the table shows medians and Linklet's requests/s as a ratio of the baseline's,
// so runs on different machines (or on a busy one) stay comparable. Not part of `npm test`. Knobs, all optional:
//
//   BENCH_SECONDS=3        length of one measured run
//   BENCH_ROUNDS=5         measured runs per server and scenario (the median is reported)
//   BENCH_CONNECTIONS=50   concurrent keep-alive connections
//   BENCH_SCENARIOS=…      comma-separated scenario ids (see SCENARIOS) to run only those
//   BENCH_WORKERS=1        WORKERS of the Linklet server
//   BENCH_LOG_LEVEL=info   LOG_LEVEL of the Linklet server (info: one line per request)
//   BENCH_LOG=file         where the Linklet server's log goes: `file` (appended to a file, as
//                          `npm start > linklet.log` would), `devnull` (/dev/null), or
//                          `file,devnull` (both, as two servers measured in the same rounds)
//   DATABASE_URL=postgres://…  also run every scenario on PostgreSQL (in a schema of its own)
//   BENCH_STORES=postgres  only these stores (comma-separated: sqlite, postgres)
//
// Figures go to bench/results/latest.json (and a time-stamped copy) as well as to the console.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { SERVER_MAIN, startServer, waitUntilIdle } from '../scripts/server-process.mjs';
import {
  PASSWORD_SCENARIOS,
  passwordNotes,
  protectedKey,
  seedProtectedPostgres,
  seedProtectedSqlite,
} from './password-scenarios.mjs';
import { expireSqliteLink, seedSqliteLinks, setSqliteRedirectRules } from './seed-sqlite.mjs';
import { targetNotes } from './target-notes.mjs';
import {
  seedWebhookPostgres,
  seedWebhookSqlite,
  WEBHOOK_SCENARIOS,
  webhookKey,
  webhookNotes,
} from './webhook-scenarios.mjs';

const env = process.env;
const SECONDS = Number(env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50);
const WARMUP_SECONDS = Math.min(2, SECONDS);
const ONLY = env.BENCH_SCENARIOS ? new Set(env.BENCH_SCENARIOS.split(',').map((id) => id.trim())) : undefined;
const POSTGRES_URL = /^postgres(ql)?:\/\//.test(env.DATABASE_URL ?? '') ? env.DATABASE_URL : undefined;
/** Where each measured Linklet server writes its log (see BENCH_LOG). */
const LOG_MODES = (env.BENCH_LOG ?? 'file').split(',').map((mode) => mode.trim());
const LOG_LABELS = { file: 'file', devnull: '/dev/null' };
for (const mode of LOG_MODES) {
  if (!(mode in LOG_LABELS)) throw new Error(`BENCH_LOG=${env.BENCH_LOG}: use file, devnull or file,devnull`);
}

/**
 * What is measured. `links`: how many links the store holds before the server starts (seeded
 * straight into the database); `load`: how autocannon is aimed; `expect`: the status class that
 * counts as a success (anything else is an error); `env`: settings of the scenario's server;
 * `expireFirst`: the first link has expired (a database of its own). Scenarios of one `group` run in the same
 * rounds, each on a server of its own, so they can be compared with each other too; the group's
 * baseline runs once a round, with its first scenario's load.
 */
const SCENARIOS = [
  { id: 'redirect-hot', name: 'redirect, one hot code', links: 1_000, load: 'hot', expect: 3 },
  { id: 'redirect-100k', name: 'redirect, 100k distinct codes', links: 100_000, load: 'uniform', expect: 3 },
  { id: 'create', name: 'create, generated code', links: 0, load: 'create', expect: 2 },
  { id: 'create-custom', name: 'create, custom code', links: 0, load: 'create-custom', expect: 2 },
  {
    id: 'redirect-1k',
    name: 'redirect, 1k links, all requested alike',
    links: 1_000,
    load: 'uniform',
    expect: 3,
    group: 'stored',
  },
  {
    id: 'redirect-1m',
    name: 'redirect, 1M links, all requested alike',
    links: 1_000_000,
    load: 'uniform',
    expect: 3,
    group: 'stored',
  },
  {
    id: 'redirect-1m-zipf',
    name: 'redirect, 1M links, Zipf popularity',
    links: 1_000_000,
    load: 'zipf',
    expect: 3,
    group: 'stored',
  },
  // The same two loads on servers that count no clicks: what finding a link among a million costs
  // apart from writing each link's clicks (with a million links requested alike, a second's
  // clicks are tens of thousands of links' totals, days and visits to write).
  {
    id: 'redirect-1k-uncounted',
    name: 'redirect, 1k links, all requested alike, counting off',
    links: 1_000,
    load: 'uniform',
    expect: 3,
    group: 'stored',
    env: { CLICK_COUNTING: 'off' },
  },
  {
    id: 'redirect-1m-uncounted',
    name: 'redirect, 1M links, all requested alike, counting off',
    links: 1_000_000,
    load: 'uniform',
    expect: 3,
    group: 'stored',
    env: { CLICK_COUNTING: 'off' },
  },
  // What counting clicks costs a redirect: the same load on two servers, one counting, in the
  // same rounds (the note below the table gives the per-round ratio).
  {
    id: 'redirect-counting-on',
    name: 'redirect, counting on',
    links: 1_000,
    load: 'uniform',
    expect: 3,
    group: 'clicks',
    env: { CLICK_COUNTING: 'on' },
  },
  {
    id: 'redirect-counting-off',
    name: 'redirect, counting off',
    links: 1_000,
    load: 'uniform',
    expect: 3,
    group: 'clicks',
    env: { CLICK_COUNTING: 'off' },
  },
  // What recording visits costs a redirect: browsers' headers (User-Agents, referrers, a
  // country header, some DNT) on two counting servers, one recording visits, in the same rounds.
  {
    id: 'redirect-visits-on',
    name: 'redirect, visits on',
    links: 1_000,
    load: 'visitors',
    expect: 3,
    group: 'visits',
    env: { CLICK_COUNTING: 'on', VISITS: 'on', COUNTRY_HEADER: 'CF-IPCountry' },
  },
  {
    id: 'redirect-visits-off',
    name: 'redirect, visits off',
    links: 1_000,
    load: 'visitors',
    expect: 3,
    group: 'visits',
    env: { CLICK_COUNTING: 'on', VISITS: 'off', COUNTRY_HEADER: 'CF-IPCountry' },
  },
  // A short link clicked after it expired, as a browser meets it: its page (410), in Korean, which
  // every click on an old shared link gets. The baseline still answers its 302: the ratio is what
  // the page costs against the cheapest answer there is.
  {
    id: 'page-expired',
    name: 'expired link, its page (browser, Korean)',
    links: 1_000,
    load: 'expired-page',
    expect: 4,
    expireFirst: true,
  },
  // What redirect rules cost (SPEC: at most 10 % more than without; a link without rules no
  // dearer than before): the same visitors on two servers in the same rounds, every link of one
  // holding three rules of which the last matches (User-Agent and Accept-Language read, two rules
  // tried and missed first), the other's none.
  {
    id: 'redirect-rules-3',
    name: 'redirect, 3 rules, the last one matching',
    links: 1_000,
    load: 'rule-visitors',
    expect: 3,
    group: 'rules',
    redirectRules: true,
  },
  {
    id: 'redirect-rules-none',
    name: 'redirect, no rules, the same visitors',
    links: 1_000,
    load: 'rule-visitors',
    expect: 3,
    group: 'rules',
  },
  // Unprotected redirects with and without protected links in the store (bench/password-scenarios.mjs).
  ...PASSWORD_SCENARIOS,
  // Redirects with and without a link.clicked webhook (bench/webhook-scenarios.mjs).
  ...WEBHOOK_SCENARIOS,
];

/** The rules of the `redirect-rules-3` links (as stored): an iPhone, a Japanese reader, then Chrome. */
const BENCH_RULES = JSON.stringify([
  { targetUrl: 'https://example.com/app-store', conditions: [{ type: 'device', value: 'ios' }] },
  { targetUrl: 'https://example.com/ja', conditions: [{ type: 'language', value: 'ja' }] },
  { targetUrl: 'https://example.com/chrome', conditions: [{ type: 'browser', value: 'chrome' }] },
]);
/** The visitors of the `rule-visitors` load: a desktop Chrome reading English (the third rule holds). */
const RULE_VISITOR_HEADERS = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'accept-language': 'en-US,en;q=0.9',
};

/** The headers of the `visitors` load: a few browsers, referrers and countries, some DNT, a bot. */
const VISITOR_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
];
const VISITOR_REFERERS = [
  'https://www.google.com/',
  'https://t.co/x',
  'https://news.ycombinator.com/item?id=1',
  undefined,
];
const VISITOR_COUNTRIES = ['KR', 'US', 'DE', 'JP', 'BR'];
const visitorHeaders = (i) => {
  const headers = {
    'user-agent': VISITOR_AGENTS[i % VISITOR_AGENTS.length],
    'cf-ipcountry': VISITOR_COUNTRIES[i % VISITOR_COUNTRIES.length],
  };
  const referer = VISITOR_REFERERS[i % VISITOR_REFERERS.length];
  if (referer) headers.referer = referer;
  if (i % 10 === 0) headers.dnt = '1';
  return headers;
};

// Seeded codes: `k` and the index, zero-padded so they sort like the index (fast B-tree appends).
const codeAt = (i) => `k${String(i).padStart(7, '0')}`;
const urlAt = (i) => `https://example.com/articles/2026/11/${i}?utm_source=newsletter&utm_medium=email`;
const zipfSamplers = new Map();

/**
 * Starts a server process (scripts/server-process.mjs) with this process's environment under
 * `extraEnv`, its log going where `log` says, and samples its memory on request. Linklet runs
 * with the Node.js options `npm start` gives it; the bare baseline with none.
 */
async function startProcess(script, extraEnv, log) {
  const nodeOptions = script === SERVER_MAIN ? undefined : [];
  const server = await startServer({ ...extraEnv, HOST: '127.0.0.1' }, { script, log, inheritEnv: true, nodeOptions });
  return {
    origin: server.origin,
    pid: server.pid,
    /** Resident memory of the process (and of its workers), in MB; undefined off Linux. */
    rssMb: () => rssOfTree(server.pid),
    cpuSeconds: () => cpuOfTree(server.pid),
    stop: () => server.stop(),
  };
}

/** The process and its children (a cluster's workers), or just the process off Linux. */
function treeOf(pid) {
  const pids = [pid];
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    if (children) pids.push(...children.split(/\s+/).map(Number));
  } catch {}
  return pids;
}

const CLOCK_TICKS = 100; // USER_HZ, 100 on every Linux Node supports
/** utime + stime of one `/proc/…/stat` line, in clock ticks. */
const ticksOf = (stat) => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
};
/**
 * CPU time the server's processes have used, in seconds: `total` (utime + stime, every thread)
 * and `eventLoop` (each process's main thread alone: the rest is the SQLite writer, V8's helpers
 * and libuv's pool); undefined off Linux. Per answered request it is steadier than requests/s on a
 * busy machine, where the load generator shares the cores: it counts the server's own work, not
 * how often it got to run. The split says which side a change moved: a create's commit is on the
 * writer, its HTTP and JSON on the event loop.
 */
function cpuOfTree(pid) {
  try {
    let total = 0;
    let eventLoop = 0;
    for (const p of treeOf(pid)) {
      total += ticksOf(readFileSync(`/proc/${p}/stat`, 'utf8'));
      eventLoop += ticksOf(readFileSync(`/proc/${p}/task/${p}/stat`, 'utf8'));
    }
    return { total: total / CLOCK_TICKS, eventLoop: eventLoop / CLOCK_TICKS };
  } catch {
    return undefined;
  }
}

function rssOfTree(pid) {
  try {
    let kb = 0;
    for (const p of treeOf(pid))
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Link indexes drawn with Zipf popularity (s = 1: the k-th most popular link is asked for 1/k as
 * often as the first), a common model of how clicks spread over short links. Ranks are scattered
 * over the stored codes, so popular links do not sit together in the database.
 */
function zipfSampler(n) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    sum += 1 / (k + 1);
    cdf[k] = sum;
  }
  return () => {
    const target = Math.random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return (lo * 7919) % n; // 7919 is prime, so this permutes 0..n-1 when n is a power of ten
  };
}

/** A Korean browser's request for a page (the `expired-page` load). */
const DEAD_LINK_HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-language': 'ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7',
};

/** autocannon options for a scenario's load; the same for Linklet and the baseline. */
function loadFor(scenario, origin, runTag) {
  const base = { url: origin, connections: CONNECTIONS };
  if (scenario.load === 'hot') return { ...base, url: `${origin}/${codeAt(0)}` };
  if (scenario.load === 'expired-page') return { ...base, url: `${origin}/${codeAt(0)}`, headers: DEAD_LINK_HEADERS };
  if (scenario.load === 'uniform' || scenario.load === 'zipf') {
    const n = scenario.links;
    if (scenario.load === 'zipf' && !zipfSamplers.has(n)) zipfSamplers.set(n, zipfSampler(n));
    const pick = scenario.load === 'zipf' ? zipfSamplers.get(n) : () => Math.floor(Math.random() * n);
    return { ...base, requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/${codeAt(pick())}` }) }] };
  }
  if (scenario.load === 'rule-visitors') {
    const pick = () => Math.floor(Math.random() * scenario.links);
    return {
      ...base,
      requests: [
        {
          method: 'GET',
          headers: RULE_VISITOR_HEADERS,
          setupRequest: (req) => ({ ...req, path: `/${codeAt(pick())}` }),
        },
      ],
    };
  }
  if (scenario.load === 'visitors') {
    let sent = 0;
    const pick = () => Math.floor(Math.random() * scenario.links);
    return {
      ...base,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: `/${codeAt(pick())}`, headers: visitorHeaders(sent++) }),
        },
      ],
    };
  }
  let counter = 0;
  const body =
    scenario.load === 'create-custom'
      ? () => JSON.stringify({ original_url: urlAt(counter), custom_code: `${runTag}-${(counter++).toString(36)}` })
      : () => JSON.stringify({ original_url: urlAt(Math.floor(Math.random() * 1e9)) });
  return {
    ...base,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/shorten',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: body() }),
      },
    ],
  };
}

/**
 * One autocannon run: requests/s, exact latency percentiles (ms), errors, peak RSS, and the
 * server's CPU time per answered request (µs).
 */
async function measure(options, seconds, expect, server) {
  const latencies = [];
  let errors = 0;
  let peakRss = server?.rssMb();
  const sampler = setInterval(() => {
    const rss = server?.rssMb();
    if (rss !== undefined && (peakRss === undefined || rss > peakRss)) peakRss = rss;
  }, 250);
  const cpuBefore = server?.cpuSeconds();
  const instance = autocannon({ ...options, duration: seconds });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    latencies.push(responseTime);
    if (Math.floor(statusCode / 100) !== expect) errors++;
  });
  const result = await instance;
  const cpuAfter = server?.cpuSeconds();
  clearInterval(sampler);
  latencies.sort((a, b) => a - b);
  const perRequest = (key) =>
    cpuBefore === undefined || cpuAfter === undefined || latencies.length === 0
      ? undefined
      : ((cpuAfter[key] - cpuBefore[key]) * 1e6) / latencies.length;
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {
    rps: result.requests.total / result.duration,
    p50: at(0.5),
    p99: at(0.99),
    errors: errors + result.errors + result.timeouts,
    rssMb: peakRss,
    cpuUs: perRequest('total'),
    eventLoopUs: perRequest('eventLoop'),
  };
}

const median = (values) => {
  const sorted = values.filter((v) => v !== undefined && !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** A fresh PostgreSQL schema holding `count` active links; returns the server's DATABASE_URL. */
async function seedPostgres(admin, schema, count) {
  const { createPostgresLinkStore } = await import('../dist/server/stores/postgres/postgres-link-store.js');
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  const store = await createPostgresLinkStore({ connectionString: POSTGRES_URL, schema });
  await store.close();
  await admin.query(
    `INSERT INTO ${schema}.links (code_key, code, original_url, created_at, expires_at, updated_at)
     SELECT c, c, 'https://example.com/articles/2026/11/' || i || '?utm_source=newsletter&utm_medium=email',
            now(), now() + interval '30 days', now()
     FROM generate_series(0, $1::int - 1) AS i, LATERAL (SELECT 'k' || lpad(i::text, 7, '0') AS c) AS code`,
    [count],
  );
  await admin.query(`VACUUM ANALYZE ${schema}.links`);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

const fmt = (value, digits = 0) =>
  value === undefined || Number.isNaN(value)
    ? 'n/a'
    : value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Scenarios in run order, those of one group together. */
function groupsOf(scenarios) {
  const groups = [];
  for (const scenario of scenarios) {
    const group = scenario.group && groups.find((members) => members[0].group === scenario.group);
    if (group) group.push(scenario);
    else groups.push([scenario]);
  }
  return groups;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'linklet-bench-'));
  const stores = (POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite']).filter(
    (store) => !env.BENCH_STORES || env.BENCH_STORES.split(',').includes(store),
  );
  const admin = POSTGRES_URL ? new pg.Client({ connectionString: POSTGRES_URL }) : undefined;
  await admin?.connect();
  const schemaPrefix = `linklet_bench_${process.pid}`;
  const schemas = [];
  const seeded = new Map();
  /** The DATABASE_URL of a store holding the scenario's links, seeded on first use. */
  const databaseFor = async (store, scenario, logMode) => {
    // Redirect scenarios only read, so those with as many links share one seeded database;
    // creates get an empty one per server.
    const key = scenario.load.startsWith('create')
      ? `${scenario.id}-${logMode}-empty`
      : `links-${scenario.links}${protectedKey(scenario)}${webhookKey(scenario)}${scenario.expireFirst ? '-expired' : ''}${scenario.redirectRules ? '-rules' : ''}`;
    if (!seeded.has(`${store}:${key}`)) {
      if (store === 'sqlite') {
        const path = join(dir, `${key}.db`);
        seedSqliteLinks(path, scenario.links, (i) => ({ code: codeAt(i), url: urlAt(i) }));
        if (scenario.protectedLinks) await seedProtectedSqlite(path, scenario.protectedLinks);
        if (scenario.expireFirst) expireSqliteLink(path, codeAt(0));
        if (scenario.redirectRules) setSqliteRedirectRules(path, BENCH_RULES);
        if (scenario.webhook) await seedWebhookSqlite(path, scenario);
        seeded.set(`${store}:${key}`, `sqlite:${path}`);
      } else {
        const schema = `${schemaPrefix}_${key.replaceAll('-', '_')}`;
        schemas.push(schema);
        seeded.set(`${store}:${key}`, await seedPostgres(admin, schema, scenario.links));
        if (scenario.protectedLinks) await seedProtectedPostgres(admin, schema, scenario.protectedLinks);
        if (scenario.redirectRules) await admin.query(`UPDATE ${schema}.links SET redirect_rules = $1`, [BENCH_RULES]);
        if (scenario.webhook) await seedWebhookPostgres(admin, schema, scenario);
        if (scenario.expireFirst)
          await admin.query(`UPDATE ${schema}.links SET expires_at = now() - interval '3 days' WHERE code_key = $1`, [
            codeAt(0),
          ]);
      }
    }
    return seeded.get(`${store}:${key}`);
  };

  const baseline = await startProcess('bench/baseline-server.mjs', {}, 'discard');
  const rows = [];
  const started = Date.now();
  try {
    for (const store of stores) {
      for (const group of groupsOf(SCENARIOS.filter((scenario) => !ONLY || ONLY.has(scenario.id)))) {
        process.stderr.write(`${store} ${group.map((scenario) => scenario.id).join(' + ')}: `);
        const servers = [];
        try {
          // Everyone in a round: the baseline (with the first scenario's load), then each scenario
          // on a Linklet server per log destination.
          const contenders = [{ who: 'baseline', scenario: group[0], server: baseline }];
          for (const scenario of group) {
            for (const logMode of LOG_MODES) {
              const server = await startProcess(
                SERVER_MAIN,
                {
                  DATABASE_URL: await databaseFor(store, scenario, logMode),
                  LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'info',
                  WORKERS: env.BENCH_WORKERS ?? '1',
                  ...scenario.env,
                },
                logMode === 'file' ? { file: join(dir, `${store}-${scenario.id}.log`) } : 'discard',
              );
              servers.push(server);
              contenders.push({ who: `${scenario.id}@${logMode}`, scenario, logMode, server });
              await waitUntilIdle(server.pid); // its link cache warmed, as a server that has run a while
            }
          }
          const tag = (who, round) => `${who.replace('@', '-')}-${process.pid}-${round}`;
          process.stderr.write('warming up… ');
          for (const { who, scenario, server } of contenders) {
            await measure(loadFor(scenario, server.origin, tag(who, 'w')), WARMUP_SECONDS, scenario.expect);
            await waitUntilIdle(server.pid, 10_000);
          }
          const runs = Object.fromEntries(contenders.map(({ who }) => [who, []]));
          for (let round = 0; round < ROUNDS; round++) {
            process.stderr.write(`round ${round + 1}… `);
            // Rotate who goes first, so none always runs on a warmer (or busier) machine.
            const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]);
            for (const { who, scenario, server } of order) {
              const options = loadFor(scenario, server.origin, tag(who, round));
              runs[who].push(await measure(options, SECONDS, scenario.expect, server));
              // The next one starts on a quiet machine: a counting server is still writing its
              // last second's clicks (at a million links, a core for most of a second).
              await waitUntilIdle(server.pid, 10_000);
            }
          }
          process.stderr.write('done\n');
          const med = (who, key) => median(runs[who].map((run) => run[key]));
          for (const { who, scenario, logMode } of contenders.slice(1)) {
            rows.push({
              id: scenario.id,
              scenario: scenario.name,
              store,
              log: LOG_LABELS[logMode],
              links: scenario.links,
              linklet: {
                rps: med(who, 'rps'),
                p50: med(who, 'p50'),
                p99: med(who, 'p99'),
                errors: runs[who].reduce((sum, run) => sum + run.errors, 0),
                rssMb: Math.max(...runs[who].map((run) => run.rssMb ?? 0)) || undefined,
                cpuUs: med(who, 'cpuUs'),
                eventLoopUs: med(who, 'eventLoopUs'),
              },
              baseline: {
                rps: med('baseline', 'rps'),
                p50: med('baseline', 'p50'),
                p99: med('baseline', 'p99'),
                cpuUs: med('baseline', 'cpuUs'),
              },
              // Each round's ratio to that round's baseline, then their median.
              ratio: median(runs[who].map((run, i) => run.rps / (runs.baseline[i]?.rps ?? Number.NaN))),
              // The same for CPU per request, the baseline's over Linklet's (so higher is better
              // here too, and 0.75 means Linklet spends 4/3 of the baseline's CPU on a request).
              cpuRatio: median(runs[who].map((run, i) => (runs.baseline[i]?.cpuUs ?? Number.NaN) / run.cpuUs)),
              runs: { linklet: runs[who], baseline: runs.baseline },
            });
          }
        } finally {
          for (const server of servers) await server.stop();
        }
      }
    }
  } finally {
    await baseline.stop();
    if (admin) {
      for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }

  const header =
    '| scenario | store | log | Linklet req/s | baseline req/s | ratio | Linklet µs/req | of it, event loop | baseline µs/req | CPU ratio | p50 ms | p99 ms | baseline p99 ms | errors | RSS MB |';
  const lines = [
    header,
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.scenario} | ${row.store} | ${row.log} | ${fmt(row.linklet.rps)} | ${fmt(row.baseline.rps)} | ${fmt(row.ratio, 2)} | ` +
        `${fmt(row.linklet.cpuUs, 1)} | ${fmt(row.linklet.eventLoopUs, 1)} | ${fmt(row.baseline.cpuUs, 1)} | ${fmt(row.cpuRatio, 2)} | ` +
        `${fmt(row.linklet.p50, 2)} | ${fmt(row.linklet.p99, 2)} | ${fmt(row.baseline.p99, 2)} | ${row.linklet.errors} | ${fmt(row.linklet.rssMb)} |`,
    );
  }
  const noteOptions = { stores, logs: LOG_MODES.map((mode) => LOG_LABELS[mode]), median, fmt };
  const notes = [
    ...targetNotes(rows, noteOptions),
    ...passwordNotes(rows, noteOptions),
    ...webhookNotes(rows, noteOptions),
  ];
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}`;
  const setup =
    `${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s, medians; ${machine}; ` +
    `WORKERS=${env.BENCH_WORKERS ?? 1}; LOG_LEVEL=${env.BENCH_LOG_LEVEL ?? 'info'}, log to ${LOG_MODES.map((mode) => LOG_LABELS[mode]).join(' and ')}`;
  console.log(`\n${setup}\n\n${lines.join('\n')}\n${notes.map((note) => `\n${note}`).join('')}`);

  const results = {
    date: new Date(started).toISOString(),
    setup: {
      seconds: SECONDS,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      workers: Number(env.BENCH_WORKERS ?? 1),
      logLevel: env.BENCH_LOG_LEVEL ?? 'info',
      logs: LOG_MODES.map((mode) => LOG_LABELS[mode]),
      node: process.version,
      cpus: cpus().map((cpu) => cpu.model.trim()),
    },
    rows,
    notes,
    table: lines.join('\n'),
  };
  mkdirSync('bench/results', { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync('bench/results/latest.json', json);
  writeFileSync(`bench/results/${results.date.replaceAll(':', '-')}.json`, json);
  console.log('\nFigures written to bench/results/latest.json');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
