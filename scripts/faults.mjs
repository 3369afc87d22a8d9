#!/usr/bin/env node
// Fault injection against the built server (`npm run build:server` first): each fault is run on
// a real process and a real SQLite file, and what the clients were told is checked against what
// the database holds afterwards. Prints, per fault, the links the clients saw acknowledged and how
// many of them were lost (must be 0), and exits 1 if any check failed.
//
//   node scripts/faults.mjs            every fault
//   node scripts/faults.mjs kill9 ro   only these (see FAULTS below)
//   FAULTS_JSON=path                   also write the results there as JSON
//
// Faults: kill -9 under load (three rounds on one file), SIGTERM under load, a write lock held
// past the busy timeout, a disk that fills up (RLIMIT_FSIZE) and frees again, a read-only database
// file, a directory made read-only while serving, and slow clients (slow-loris headers, trickling
// bodies). As root, the read-only faults run the server without the capabilities that let root
// ignore file permissions (util-linux `setpriv`).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SERVER_MAIN, startServer as startServerProcess } from './server-process.mjs';

if (!existsSync(SERVER_MAIN)) {
  process.stderr.write(`${SERVER_MAIN} is missing; run \`npm run build:server\` first.\n`);
  process.exit(2);
}
// The store's own default, so the lock fault holds the lock past the timeout the server uses.
const { DEFAULT_BUSY_TIMEOUT_MS } = await import('../dist/server/stores/sqlite/sqlite-link-store.js');
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
/** Server processes not yet exited: a fault that throws leaves none behind (see main). */
const started = new Set();
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

// ---------------------------------------------------------------------------------------------
// The server process

/**
 * Starts the built server on `port` (see scripts/server-process.mjs; `fileSizeBlocks` and
 * `obeyPermissions` simulate a full disk and a non-root owner) at log level `warn`, collecting its
 * log, and remembers it until it exits so that `main` can kill whatever a failed fault left.
 */
async function startServer(env, { port, ...options } = {}) {
  const onPort = port === undefined ? {} : { PORT: String(port) };
  const server = await startServerProcess({ LOG_LEVEL: 'warn', ...onPort, ...env }, options);
  started.add(server);
  void server.exited.then(() => started.delete(server));
  return server;
}

// ---------------------------------------------------------------------------------------------
// HTTP

/** One HTTP request; resolves with status, headers and text, rejects with the socket error. */
function send(origin, method, path, body, { agent, headers = {}, timeoutMs = 30_000 } = {}) {
  return new Promise((resolvePromise, reject) => {
    const url = new URL(path, origin);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent,
        headers: {
          ...(payload === undefined
            ? {}
            : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolvePromise({ status: res.statusCode, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () =>
      req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** What happened to a request that got no answer: refused (never sent) or reset (cut while in flight). */
const failureKind = (error) => (error.code === 'ECONNREFUSED' ? 'refused' : 'reset');

/**
 * `clients` loops creating links as fast as the server answers, each on its own keep-alive
 * connection, until `stop()`. Every other request claims a custom code that all clients contest
 * in the same order (so exactly one may win each); the rest get generated codes. Records every
 * acknowledged link (code → URL, and any code acknowledged twice), every answer by status, and
 * every request that got no answer.
 */
function createLoad(origin, { clients = 16, tag = 'x', stopOnRefused = false } = {}) {
  const acked = new Map();
  const doubles = [];
  const statuses = new Map();
  const failures = { refused: 0, reset: 0, codes: new Map() };
  const latencies = [];
  let stopped = false;
  const loop = async (client) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let n = 0; !stopped; n++) {
      const url = `https://example.com/${tag}/${client}/${n}?q=${Math.random().toString(36).slice(2)}`;
      const custom = n % 2 === 1 ? { custom_code: `${tag}-${(n - 1) / 2}` } : {};
      const path = n % 3 === 0 ? '/api.php' : '/api/v1/shorten';
      const started = performance.now();
      try {
        const answer = await send(origin, 'POST', path, { original_url: url, ...custom }, { agent });
        latencies.push(performance.now() - started);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 200 || answer.status === 201) {
          const { code } = JSON.parse(answer.text).data;
          const key = code.toLowerCase();
          if (acked.has(key) && acked.get(key).url !== url) doubles.push(code);
          acked.set(key, { code, url });
        }
      } catch (error) {
        const kind = failureKind(error);
        failures[kind] += 1;
        failures.codes.set(error.code ?? error.message, (failures.codes.get(error.code ?? error.message) ?? 0) + 1);
        if (kind === 'refused' && stopOnRefused) break;
        await sleep(5);
      }
    }
    agent.destroy();
  };
  const running = Promise.all(Array.from({ length: clients }, (_, i) => loop(i)));
  return {
    acked,
    doubles,
    statuses,
    failures,
    latencies,
    async stop() {
      stopped = true;
      await running;
    },
    finished: running,
  };
}

/** Creates `count` links one after another; returns the acknowledged ones and the statuses seen. */
async function createSequentially(origin, count, tag) {
  const acked = new Map();
  const answers = [];
  for (let n = 0; n < count; n++) {
    const url = `https://example.com/${tag}/${n}`;
    const answer = await send(origin, 'POST', '/api/v1/shorten', { original_url: url, custom_code: `${tag}-${n}` });
    answers.push(answer);
    if (answer.status === 201) acked.set(`${tag}-${n}`.toLowerCase(), { code: `${tag}-${n}`, url });
  }
  return { acked, answers };
}

/** Resolves every acknowledged link; returns those that do not redirect to their URL. */
async function lostLinks(origin, acked) {
  const entries = [...acked.values()];
  const lost = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  for (let i = 0; i < entries.length; i += 64) {
    await Promise.all(
      entries.slice(i, i + 64).map(async ({ code, url }) => {
        const answer = await send(origin, 'GET', `/${encodeURIComponent(code)}`, undefined, { agent });
        if (answer.status !== 302 || answer.headers.location !== new URL(url).href) {
          lost.push({ code, url, status: answer.status, location: answer.headers.location });
        }
      }),
    );
  }
  agent.destroy();
  return lost;
}

/** `PRAGMA integrity_check` of a database file, opened read-write so a hot WAL is recovered. */
function integrityOf(path) {
  const db = new Database(path);
  try {
    return db.pragma('integrity_check', { simple: true });
  } finally {
    db.close();
  }
}

/** Code keys stored more than once, and acknowledged codes stored with another URL. */
function conflictsIn(path, acked) {
  const db = new Database(path, { readonly: true });
  try {
    const duplicates = db.prepare('SELECT code_key FROM links GROUP BY code_key HAVING count(*) > 1').all();
    const byKey = db.prepare('SELECT original_url FROM links WHERE code_key = ?').pluck();
    const mismatched = [...acked.entries()].filter(([key, { url }]) => byKey.get(key) !== url);
    return { duplicates: duplicates.length, mismatched: mismatched.length };
  } finally {
    db.close();
  }
}

const merge = (into, from) => {
  for (const [key, value] of from) into.set(key, value);
  return into;
};

// ---------------------------------------------------------------------------------------------
// The faults. Each returns { acknowledged, lost, checks: [[description, ok]], notes }.

const workDir = mkdtempSync(join(tmpdir(), 'linklet-faults-'));
let dbCount = 0;
const freshDir = () => {
  const dir = join(workDir, `db-${++dbCount}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

async function killNine() {
  const path = join(freshDir(), 'links.db');
  const acked = new Map();
  const checks = [];
  let requests = 0;
  let doubles = 0;
  let port;
  for (let round = 1; round <= 3; round++) {
    const server = await startServer({ DATABASE_URL: `sqlite:${path}` }, { port });
    port = server.port;
    const load = createLoad(server.origin, { tag: `k${round}` });
    await sleep(700 + Math.random() * 600);
    await server.stop('SIGKILL');
    await load.stop();
    for (const [key, { url }] of load.acked) if (acked.has(key) && acked.get(key).url !== url) doubles += 1;
    merge(acked, load.acked);
    doubles += load.doubles.length;
    requests += [...load.statuses.values()].reduce((a, b) => a + b, 0);
    checks.push([`round ${round}: integrity_check right after kill -9 is ok`, integrityOf(path) === 'ok']);
  }
  const server = await startServer({ DATABASE_URL: `sqlite:${path}` }, { port });
  const lost = await lostLinks(server.origin, acked);
  await server.stop('SIGTERM');
  const conflicts = conflictsIn(path, acked);
  checks.push(['every acknowledged link resolves to its URL after restart', lost.length === 0]);
  checks.push(['no code was acknowledged for two URLs', doubles === 0]);
  checks.push([
    'no code key is stored twice, none with another URL',
    conflicts.duplicates + conflicts.mismatched === 0,
  ]);
  checks.push(['integrity_check after restart is ok', integrityOf(path) === 'ok']);
  return { acknowledged: acked.size, lost: lost.length, checks, notes: `3 rounds, ${requests} answered requests` };
}

async function sigterm() {
  const path = join(freshDir(), 'links.db');
  const server = await startServer({ DATABASE_URL: `sqlite:${path}` });
  const load = createLoad(server.origin, { tag: 't', stopOnRefused: true });
  await sleep(1000);
  const signalled = performance.now();
  const exitedPromise = server.stop('SIGTERM'); // resolves with the exit code
  const deadline = sleep(5000).then(() => 'timeout');
  const exit = await Promise.race([exitedPromise, deadline]);
  const exitMs = Math.round(performance.now() - signalled);
  await Promise.race([load.finished, sleep(2000)]);
  await load.stop();
  const statuses = [...load.statuses.keys()];
  const restarted = await startServer({ DATABASE_URL: `sqlite:${path}` }, { port: server.port });
  const lost = await lostLinks(restarted.origin, load.acked);
  await restarted.stop('SIGTERM');
  const checks = [
    ['exits 0 within 5 s', exit === 0],
    [`no request was reset (${load.failures.reset} reset)`, load.failures.reset === 0],
    ['every request sent got a whole answer (only 200, 201, 409)', statuses.every((s) => [200, 201, 409].includes(s))],
    ['every acknowledged link resolves to its URL after restart', lost.length === 0],
  ];
  return {
    acknowledged: load.acked.size,
    lost: lost.length,
    checks,
    notes: `exit ${exit} after ${exitMs} ms; ${load.failures.refused} refused after close`,
  };
}

async function lockedDatabase() {
  const path = join(freshDir(), 'links.db');
  const server = await startServer({ DATABASE_URL: `sqlite:${path}` });
  const before = await createSequentially(server.origin, 5, 'before');
  const holder = new Database(path);
  holder.pragma(`busy_timeout = ${DEFAULT_BUSY_TIMEOUT_MS}`);
  holder.exec('BEGIN IMMEDIATE'); // another process takes the write lock and keeps it
  const lockedAt = performance.now();
  const during = Promise.all(
    [0, 1, 2].map((n) =>
      send(server.origin, 'POST', '/api/v1/shorten', { original_url: `https://example.com/locked/${n}` }),
    ),
  );
  await sleep(200);
  const redirectStarted = performance.now();
  const redirect = await send(server.origin, 'GET', '/before-0');
  const redirectMs = performance.now() - redirectStarted;
  const answers = await during;
  const answeredAfterMs = performance.now() - lockedAt;
  holder.exec('ROLLBACK');
  holder.close();
  const after = await createSequentially(server.origin, 5, 'after');
  const acked = merge(new Map(before.acked), after.acked);
  const lost = await lostLinks(server.origin, acked);
  const stillUp = server.alive();
  await server.stop('SIGTERM');
  const checks = [
    ['creates while locked answer 503', answers.every((a) => a.status === 503)],
    ['with Retry-After', answers.every((a) => /^\d+$/.test(a.headers['retry-after'] ?? ''))],
    [
      'and the error envelope, no SQL or stack',
      answers.every((a) => /^\{"status":"error","message":"[^"]+"\}$/.test(a.text) && !/SQLITE|at \w+ \(/.test(a.text)),
    ],
    ['with the security headers', answers.every((a) => a.headers['x-content-type-options'] === 'nosniff')],
    [
      'logged as "store unavailable" with its cause, and no request body in the log',
      server.logs.some((line) => line.msg === 'store unavailable' && /locked|busy/i.test(JSON.stringify(line.err))) &&
        !JSON.stringify(server.logs).includes('example.com'),
    ],
    [
      `only after the busy timeout (${Math.round(answeredAfterMs)} ms)`,
      answeredAfterMs >= DEFAULT_BUSY_TIMEOUT_MS - 100,
    ],
    [
      `redirects keep working while locked (${Math.round(redirectMs)} ms)`,
      redirect.status === 302 && redirectMs < 1000,
    ],
    ['creates succeed again once the lock is released', after.answers.every((a) => a.status === 201)],
    ['the process stayed up', stillUp],
    ['every acknowledged link resolves to its URL', lost.length === 0],
  ];
  return { acknowledged: acked.size, lost: lost.length, checks, notes: `lock held ${Math.round(answeredAfterMs)} ms` };
}

async function diskFull() {
  const path = join(freshDir(), 'links.db');
  // 2048 blocks of 512 bytes: the WAL fills up after a few hundred commits.
  const server = await startServer({ DATABASE_URL: `sqlite:${path}` }, { fileSizeBlocks: 2048 });
  const acked = new Map();
  const statuses = [];
  let retryAfter = true;
  let envelope = true;
  let full = 0;
  for (let n = 0; n < 5000 && full < 5; n++) {
    const url = `https://example.com/full/${n}/${'x'.repeat(200)}`;
    const answer = await send(server.origin, 'POST', '/api/v1/shorten', { original_url: url });
    statuses.push(answer.status);
    if (answer.status === 201)
      acked.set(JSON.parse(answer.text).data.code, { code: JSON.parse(answer.text).data.code, url });
    if (answer.status === 503) {
      full += 1;
      retryAfter &&= /^\d+$/.test(answer.headers['retry-after'] ?? '');
      envelope &&= /^\{"status":"error","message":"[^"]+"\}$/.test(answer.text) && !/SQLITE|EFBIG/.test(answer.text);
    }
  }
  const health = await send(server.origin, 'GET', '/health');
  const readsWhileFull = await lostLinks(server.origin, new Map([...acked].slice(0, 50)));
  let recovered = 'prlimit not found';
  if (existsSync('/usr/bin/prlimit') || existsSync('/bin/prlimit')) {
    execFileSync('prlimit', ['--pid', String(server.pid), '--fsize=unlimited:']); // space is freed
    const again = await createSequentially(server.origin, 3, 'freed');
    merge(acked, again.acked);
    recovered = again.answers.every((a) => a.status === 201) ? 'yes' : 'no';
  }
  const stillUp = server.alive();
  await server.stop('SIGTERM');
  const restarted = await startServer({ DATABASE_URL: `sqlite:${path}` });
  const lost = await lostLinks(restarted.origin, acked);
  await restarted.stop('SIGTERM');
  const checks = [
    ['the disk filled up: creates answered 503', full >= 5],
    ['never 500 (only 201 and 503)', statuses.every((s) => s === 201 || s === 503)],
    ['503 with Retry-After and the plain error envelope', retryAfter && envelope],
    [
      'the process stayed up, /health 200, redirects served',
      stillUp && health.status === 200 && readsWhileFull.length === 0,
    ],
    ['creates succeed again once there is space', recovered !== 'no'],
    ['integrity_check ok', integrityOf(path) === 'ok'],
    ['every acknowledged link resolves to its URL after restart', lost.length === 0],
  ];
  return {
    acknowledged: acked.size,
    lost: lost.length,
    checks,
    notes: `${statuses.filter((s) => s === 201).length} created before the disk was full; recovered: ${recovered}`,
  };
}

async function readOnlyFile() {
  const dir = freshDir();
  const path = join(dir, 'links.db');
  const first = await startServer({ DATABASE_URL: `sqlite:${path}` });
  const { acked } = await createSequentially(first.origin, 10, 'ro');
  await first.stop('SIGTERM');
  chmodSync(path, 0o444); // the database file cannot be written; its folder still can
  const server = await startServer({ DATABASE_URL: `sqlite:${path}` }, { obeyPermissions: true });
  const creates = await Promise.all(
    [0, 1, 2].map((n) =>
      send(server.origin, 'POST', '/api/v1/shorten', { original_url: `https://example.com/ro/${n}` }),
    ),
  );
  const readsWhileReadOnly = await lostLinks(server.origin, acked);
  const health = await send(server.origin, 'GET', '/health');
  const stillUp = server.alive();
  await server.stop('SIGTERM');
  // Fixed: SQLite made its -shm file read-only like the database file, so both are made writable.
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o644);
  const restarted = await startServer({ DATABASE_URL: `sqlite:${path}` }, { obeyPermissions: true });
  const after = await createSequentially(restarted.origin, 3, 'rw');
  merge(acked, after.acked);
  const lost = await lostLinks(restarted.origin, acked);
  await restarted.stop('SIGTERM');
  const checks = [
    ['the server starts on a read-only database file', true],
    ['creates answer 503 with Retry-After', creates.every((a) => a.status === 503 && a.headers['retry-after'])],
    [
      'redirects are served, /health 200, the process stays up',
      readsWhileReadOnly.length === 0 && health.status === 200 && stillUp,
    ],
    ['writable again: creates succeed after a restart', after.answers.every((a) => a.status === 201)],
    ['every acknowledged link resolves to its URL', lost.length === 0],
  ];
  return {
    acknowledged: acked.size,
    lost: lost.length,
    checks,
    notes: isRoot ? 'server run as root without CAP_DAC_OVERRIDE' : '',
  };
}

async function readOnlyDirectory() {
  const dir = freshDir();
  const path = join(dir, 'links.db');
  const server = await startServer({ DATABASE_URL: `sqlite:${path}` }, { obeyPermissions: true });
  const before = await createSequentially(server.origin, 10, 'dir');
  chmodSync(dir, 0o555); // no file can be made or removed in the folder from now on
  const during = await createSequentially(server.origin, 10, 'dirro');
  const stillUp = server.alive();
  const exit = await server.stop('SIGTERM');
  chmodSync(dir, 0o755);
  const acked = merge(new Map(before.acked), during.acked);
  const restarted = await startServer({ DATABASE_URL: `sqlite:${path}` }, { obeyPermissions: true });
  const lost = await lostLinks(restarted.origin, acked);
  await restarted.stop('SIGTERM');
  // A read-only folder from the start, with no -wal or -shm file yet: SQLite cannot open the
  // database in WAL mode at all, so the server refuses to start and says why.
  const fresh = freshDir();
  const freshPath = join(fresh, 'links.db');
  new Database(freshPath).close();
  chmodSync(fresh, 0o555);
  const refused = await startServer({ DATABASE_URL: `sqlite:${freshPath}` }, { obeyPermissions: true }).then(
    async (unexpected) => {
      await unexpected.stop('SIGTERM');
      return undefined;
    },
    (error) => String(error.message),
  );
  chmodSync(fresh, 0o755);
  const checks = [
    [
      'creates keep succeeding (WAL mode makes no new files while serving)',
      during.answers.every((a) => a.status === 201),
    ],
    ['the process stayed up and exits 0', stillUp && exit === 0],
    [
      'read-only from the start (no -wal yet): refuses to start, saying what must be writable',
      refused !== undefined && /must be writable/.test(refused),
    ],
    ['every acknowledged link resolves to its URL', lost.length === 0],
  ];
  return { acknowledged: acked.size, lost: lost.length, checks, notes: '' };
}

/** A raw connection that sends `head` and then `drip` one byte every `everyMs`; resolves when the server closes it. */
function slowClient(port, head, drip, everyMs) {
  return new Promise((resolvePromise) => {
    const socket = connect(port, '127.0.0.1');
    const opened = performance.now();
    let answer = '';
    let i = 0;
    let timer;
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (socket.writable) socket.write(drip[i++ % drip.length]);
      }, everyMs);
    });
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolvePromise({ closedAfterMs: performance.now() - opened, status: Number(answer.split(' ')[1]) || 0 });
    });
  });
}

async function slowClients() {
  const path = join(freshDir(), 'links.db');
  const headersTimeout = 1000;
  const requestTimeout = 2000;
  const server = await startServer({
    DATABASE_URL: `sqlite:${path}`,
    HEADERS_TIMEOUT_MS: String(headersTimeout),
    REQUEST_TIMEOUT_MS: String(requestTimeout),
  });
  const loris = Array.from({ length: 20 }, () =>
    slowClient(server.port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: a\r\n', 100),
  );
  const body = JSON.stringify({ original_url: 'https://example.com/trickled' });
  const trickle = Array.from({ length: 10 }, () =>
    slowClient(
      server.port,
      `POST /api/v1/shorten HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body.split(''),
      300,
    ),
  );
  const load = createLoad(server.origin, { clients: 4, tag: 's' });
  const slow = await Promise.all([...loris, ...trickle]);
  await load.stop();
  const lost = await lostLinks(server.origin, load.acked);
  await server.stop('SIGTERM');
  const lorisResults = slow.slice(0, loris.length);
  const trickleResults = slow.slice(loris.length);
  const worst = (results) => Math.round(Math.max(...results.map((r) => r.closedAfterMs)));
  const sorted = [...load.latencies].sort((a, b) => a - b);
  const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
  const checks = [
    [
      `slow headers cut by the headers timeout (worst ${worst(lorisResults)} ms)`,
      worst(lorisResults) < headersTimeout + 1500,
    ],
    [
      `trickling bodies cut by the request timeout (worst ${worst(trickleResults)} ms)`,
      worst(trickleResults) < requestTimeout + 1500,
    ],
    ['they get 408 and the connection is closed', slow.every((r) => r.status === 408)],
    [
      `other clients served meanwhile (${load.latencies.length} creates, p99 ${Math.round(p99)} ms)`,
      load.latencies.length > 100 && p99 < 1000 && load.failures.reset + load.failures.refused === 0,
    ],
    ['every acknowledged link resolves to its URL', lost.length === 0],
  ];
  return { acknowledged: load.acked.size, lost: lost.length, checks, notes: '20 slow-loris, 10 trickling bodies' };
}

const FAULTS = {
  kill9: ['kill -9 under load', killNine],
  sigterm: ['SIGTERM under load', sigterm],
  locked: ['write lock held past busy timeout', lockedDatabase],
  diskfull: ['disk full (RLIMIT_FSIZE), then freed', diskFull],
  rofile: ['read-only database file', readOnlyFile],
  rodir: ['read-only directory (serving, at start)', readOnlyDirectory],
  slow: ['slow clients (headers, bodies)', slowClients],
};

// ---------------------------------------------------------------------------------------------

async function main() {
  const chosen = process.argv.slice(2);
  const unknown = chosen.filter((id) => !(id in FAULTS));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown fault(s): ${unknown.join(', ')}; known: ${Object.keys(FAULTS).join(', ')}\n`);
    process.exit(2);
  }
  const results = [];
  let failed = false;
  for (const [id, [name, run]] of Object.entries(FAULTS)) {
    if (chosen.length > 0 && !chosen.includes(id)) continue;
    const started = performance.now();
    let result;
    try {
      result = await run();
    } catch (error) {
      result = { acknowledged: 0, lost: 0, checks: [[`ran without error: ${error.stack ?? error}`, false]] };
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (result.skipped) {
      process.stdout.write(`${name.padEnd(40)} not run: ${result.skipped}\n`);
      results.push({ id, name, skipped: result.skipped });
      continue;
    }
    const ok = result.lost === 0 && result.checks.every(([, passed]) => passed);
    failed ||= !ok;
    process.stdout.write(
      `${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(40)} acknowledged ${String(result.acknowledged).padStart(5)}  lost ${result.lost}  (${seconds} s${result.notes ? `; ${result.notes}` : ''})\n`,
    );
    for (const [check, passed] of result.checks) process.stdout.write(`       ${passed ? '✓' : '✗'} ${check}\n`);
    results.push({
      id,
      name,
      ok,
      acknowledged: result.acknowledged,
      lost: result.lost,
      seconds: Number(seconds),
      notes: result.notes,
      checks: result.checks,
    });
  }
  for (const server of started) server.process.stop('SIGKILL');
  if (process.env.FAULTS_JSON) writeFileSync(process.env.FAULTS_JSON, JSON.stringify(results, null, 2));
  rmSync(workDir, { recursive: true, force: true });
  process.stdout.write(
    failed ? 'Some faults lost links or failed a check.\n' : 'Every fault: nothing acknowledged was lost.\n',
  );
  process.exit(failed ? 1 : 0);
}

await main();
