// The one way tests, the fault script and the bench start a Linklet server process: plain JS so
// that .mjs scripts and TypeScript tests (through server-process.d.mts) share it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/** The built server, as `npm start` runs it. */
export const SERVER_MAIN = resolve('dist/server/main.js');

/**
 * The Node.js options `npm start` (and every documented way of running the server) gives it:
 * V8's young generation capped at 8 MB a half, where it may otherwise grow to 16 when much
 * survives (an import's batches waiting for their commit), which made a 100,000-row import's
 * RSS growth 51–126 MiB (12 runs) rather than 44–72 (14 runs), at the same CPU per redirect
 * (docs/performance.md). The tests and benches start the server the same way.
 */
export const SERVER_NODE_OPTIONS = ['--max-semi-space-size=8'];

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
// Root ignores file permissions (CAP_DAC_OVERRIDE); without these capabilities it obeys them.
const DROP_PERMISSION_OVERRIDES = '--bounding-set=-dac_override,-dac_read_search,-fowner';
const START_TIMEOUT_MS = 30_000;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** A free TCP port on loopback, picked by the kernel. */
export async function freePort() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
  probe.close();
  await once(probe, 'close');
  return port;
}

/**
 * The command that runs `script`: `node` with `nodeOptions`, or that under another program
 * (`under`: valgrind), or under a soft file-size limit (writes past it fail with EFBIG, as on a
 * full disk), or as root without the capabilities that let root ignore file permissions
 * (util-linux `setpriv`), so that a read-only file is read-only to it.
 * @returns {[string, string[]]}
 */
function commandFor(
  script,
  { fileSizeBlocks, obeyPermissions, under, node = process.execPath, nodeOptions = SERVER_NODE_OPTIONS },
) {
  const args = [...nodeOptions, script];
  if (under !== undefined) return [under[0], [...under.slice(1), node, ...args]];
  if (fileSizeBlocks !== undefined)
    return ['sh', ['-c', `ulimit -S -f ${fileSizeBlocks} && exec "$@"`, 'sh', node, ...args]];
  if (obeyPermissions && isRoot) return ['setpriv', [DROP_PERMISSION_OVERRIDES, '--', node, ...args]];
  return [node, args];
}

/**
 * Waits until a process is idle: its CPU time (utime + stime) still for half a second, at most
 * `limitMs`. A server just started warms its link cache (a million links: a few seconds of CPU),
 * which is no part of what a benchmark measures. Returns at once off Linux (no `/proc`).
 * @param {number} pid
 */
export async function waitUntilIdle(pid, limitMs = 60_000) {
  const cpu = () => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return undefined;
    }
  };
  const until = Date.now() + limitMs;
  let before = cpu();
  while (before !== undefined && Date.now() < until) {
    await sleep(500);
    const now = cpu();
    if (now === undefined || now - before <= 2) return; // ticks of 10 ms
    before = now;
  }
}

/** Whether `GET /health` answers, and not with a 5xx (a refused connection: not yet). */
function healthy(origin) {
  return new Promise((answer) => {
    const req = request(`${origin}/health`, { agent: false }, (res) => {
      res.resume();
      answer((res.statusCode ?? 500) < 500);
    });
    req.on('error', () => answer(false));
    req.end();
  });
}

/**
 * Starts a server process (the built Linklet server unless `options.script` says otherwise) and
 * resolves once it serves. Its environment is `env` over `PATH` and a free `PORT` (plus this
 * process's own environment with `inheritEnv`). Where its log goes is `options.log`:
 * `'collect'` (default) parses each JSON line into `logs`; `{ file }` appends it to that file as
 * `npm start > linklet.log` would (the server writes it itself); `'discard'` sends it to
 * /dev/null. A server whose log is collected at `info` says when it serves (with `WORKERS`, once
 * every worker listens) and is waited for; otherwise `/health` is asked until it answers (not 5xx).
 * @param {Record<string, string>} env
 * @param {import('./server-process.d.mts').StartOptions} [options]
 * @returns {Promise<import('./server-process.d.mts').RunningServer>}
 */
export async function startServer(env, options = {}) {
  const { log = 'collect', script = SERVER_MAIN, inheritEnv = false, startTimeoutMs = START_TIMEOUT_MS } = options;
  const port = Number(env.PORT ?? (await freePort()));
  const fullEnv = { ...(inheritEnv ? process.env : { PATH: process.env.PATH ?? '' }), PORT: String(port), ...env };
  const logFd = typeof log === 'object' ? openSync(log.file, 'a') : undefined;
  const stdout = log === 'collect' ? 'pipe' : (logFd ?? 'ignore');
  const [command, args] = commandFor(script, options);
  const child = spawn(command, args, { env: fullEnv, stdio: ['ignore', stdout, 'pipe'] });
  if (logFd !== undefined) closeSync(logFd); // the child holds its own copy
  /** @type {Array<Record<string, unknown>>} */
  const logs = [];
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  let pending = '';
  child.stdout?.on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line));
      } catch {
        logs.push({ msg: line });
      }
    }
  });
  // 'close', not 'exit': it waits for stdout to drain, so every log line is in `logs`.
  const exited = once(child, 'close').then(([code, signal]) => ({ code, signal }));
  const origin = `http://127.0.0.1:${port}`;
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async (signal = 'SIGTERM') => {
    if (alive()) child.kill(signal);
    return (await exited).code;
  };
  const announces = log === 'collect' && ['info', 'debug', 'trace'].includes(fullEnv.LOG_LEVEL ?? 'info');
  const serving = () =>
    announces ? logs.some((entry) => String(entry.msg).startsWith('Linklet is serving')) : healthy(origin);
  for (let waited = 0; !(await serving()); waited += 25) {
    if (!alive()) {
      await exited;
      // The server says why on stdout (its JSON log at error or fatal), a crash on stderr.
      const errors = logs.filter((entry) => Number(entry.level) >= 50).map((entry) => JSON.stringify(entry));
      throw new Error(
        `server exited with ${child.exitCode ?? child.signalCode} before serving:\n${[...errors, stderr].join('\n')}`,
      );
    }
    if (waited > startTimeoutMs) {
      await stop('SIGKILL');
      throw new Error(`server did not serve on ${origin} within ${startTimeoutMs / 1000} s:\n${stderr}`);
    }
    await sleep(25);
  }
  return {
    url: env.BASE_URL ?? `http://localhost:${port}`,
    origin,
    port,
    pid: /** @type {number} */ (child.pid),
    process: child,
    logs,
    stderr: () => stderr,
    alive,
    exited,
    async waitForLogs(predicate, count) {
      // stdout arrives on its own pipe, so a response can reach the caller before its log line.
      for (let waited = 0; waited < 5000; waited += 20) {
        const matching = logs.filter(predicate);
        if (matching.length >= count) return matching;
        await sleep(20);
      }
      return logs.filter(predicate);
    },
    stop,
  };
}

/**
 * Runs the server expecting it to refuse to start (a bad setting, an unusable database):
 * resolves with its exit code and what it wrote to stderr.
 * @param {Record<string, string>} env
 * @returns {Promise<{ code: number | null; stderr: string }>}
 */
export async function runFailingServer(env) {
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = await once(child, 'close');
  return { code, stderr };
}
