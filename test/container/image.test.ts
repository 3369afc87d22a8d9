import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutNpmConfig } from '../../scripts/npm-environment.mjs';
import { freePort } from '../../scripts/server-process.mjs';
import { usePostgresSchema } from '../server/postgres-schema.js';
import { PODMAN, podman, podmanExitCode, runShown } from './podman.js';

// The image as a user builds it (`docker build .`), built with podman from the official Node.js
// images made locally (test/container/base-images.sh), then run: on SQLite in a named volume, and
// on PostgreSQL and Redis from the environment. Opt-in (`npm run test:container`): it installs
// podman, makes Debian and Node.js images and compiles better-sqlite3, minutes of work.

const ROOT = resolve(import.meta.dirname, '../..');
const DOCKERFILE_NODE = /^ARG NODE_VERSION=(\S+)$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
/** The Node.js line (or release) to build on: the Dockerfile's own unless LINKLET_CONTAINER_NODE names another. */
const NODE_VERSION = process.env.LINKLET_CONTAINER_NODE || DOCKERFILE_NODE || '';
const IMAGE = `localhost/linklet-container-test:node${NODE_VERSION}`;
const RUN_ID = randomBytes(4).toString('hex');
const API_KEY = `container-test-admin-${RUN_ID}`;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// A server is asked for /health at most this many times, 250 ms apart, after its start: one that
// has not answered within a minute has failed.
const START_ATTEMPTS = 240;
// `podman stop` sends SIGTERM, then SIGKILL (exit 137) after this long: exit 0 is a stop on its own.
const STOP_WITHIN_SECONDS = 10;

const containers: string[] = [];
const volume = `linklet-container-test-${RUN_ID}`;
const lent = mkdtempSync(join(tmpdir(), 'linklet-container-npm-'));

/** apt-get installs what the test runs on, when missing (Debian's podman, runc and debootstrap). */
function installTools(): void {
  const missing = ['podman', 'runc', 'debootstrap'].filter((tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return;
  execFileSync('sh', ['-c', 'apt-get update && apt-get install -y podman runc debootstrap'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/**
 * The build's RUN steps reach the npm registry as this machine does: its CA bundle and a global
 * npmrc naming it (and `nodedir`, so node-gyp builds better-sqlite3 against the image's own
 * headers instead of downloading them), lent read-only, so the Dockerfile stays as anyone runs it.
 */
function npmVolumes(): string[] {
  // As the machine's npm reads them, not as the `npm run test:container` above this process hands them down.
  const npmConfig = (key: string) =>
    execFileSync('npm', ['config', 'get', key], { encoding: 'utf8', env: withoutNpmConfig(process.env) }).trim();
  const cafile = npmConfig('cafile');
  const lines = [`registry=${npmConfig('registry')}`, 'nodedir=/usr/local'];
  const volumes: string[] = [];
  if (cafile && cafile !== 'null' && cafile !== 'undefined') {
    lines.push('cafile=/etc/linklet-test-npm/ca.pem');
    volumes.push('-v', `${cafile}:/etc/linklet-test-npm/ca.pem:ro`);
  }
  writeFileSync(join(lent, 'npmrc'), `${lines.join('\n')}\n`);
  // npm reads its global config from PREFIX/etc/npmrc: /usr/local/etc/npmrc in the official image.
  return [...volumes, '-v', `${join(lent, 'npmrc')}:/usr/local/etc/npmrc:ro`];
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * The limits a container gets: this machine's open files, and podman's default processes
 * (32768). Unasked, podman as root asks for more than a root without CAP_SYS_RESOURCE (as here)
 * may set, and runc fails to start the container (`error setting rlimit`); `--ulimit host` does
 * the same with Debian's podman 4.3.
 */
function limits(): string[] {
  const [, soft, hard] = /^Max open files\s+(\S+)\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8')) ?? [];
  const value = (limit: string | undefined) => (limit === 'unlimited' ? '-1' : limit);
  return ['--ulimit', `nofile=${value(soft)}:${value(hard)}`, '--ulimit', 'nproc=32768:32768'];
}

/** Starts a container of the image, detached, with `options` (podman run's) before the image. */
async function start(options: string[]): Promise<string> {
  const name = `linklet-container-test-${RUN_ID}-${containers.length}`;
  containers.push(name);
  await podman('run', '-d', '--name', name, ...limits(), ...options, IMAGE);
  return name;
}

/** Waits until `origin`'s /health answers 200; fails with the container's log if it never does. */
async function waitForHealth(name: string, origin: string): Promise<void> {
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
    const answered = await fetch(`${origin}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    const state = await podman('inspect', '--format', '{{.State.Status}}', name);
    if (state !== 'running') break;
    await sleep(250);
  }
  throw new Error(`${name} did not answer /health:\n${await podman('logs', name)}`);
}

/**
 * Stops a container as an orchestrator does (SIGTERM) and returns its exit code, its log, and
 * how long the server took from the signal to its last line (its own log's times), and podman.
 */
async function stop(name: string): Promise<{ exitCode: number; log: string; summary: string }> {
  const started = performance.now();
  await podman('stop', '--time', String(STOP_WITHIN_SECONDS), name);
  const seconds = (performance.now() - started) / 1000;
  const exitCode = Number(await podman('inspect', '--format', '{{.State.ExitCode}}', name));
  const log = await podman('logs', name);
  const timeOf = (message: string) => {
    const line = log.split('\n').find((entry) => entry.includes(`"msg":"${message}"`)) ?? '';
    return Date.parse(/"time":"([^"]+)"/.exec(line)?.[1] ?? '');
  };
  const serverMs = timeOf('stopped') - timeOf('shutting down');
  return {
    exitCode,
    log,
    summary: `exit ${exitCode}; the server stopped in ${serverMs} ms, podman stop took ${seconds.toFixed(1)} s`,
  };
}

async function shorten(origin: string, originalUrl: string, code: string): Promise<string> {
  const response = await fetch(`${origin}/api/v1/shorten`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': API_KEY },
    body: JSON.stringify({ original_url: originalUrl, custom_code: code, expire_duration: '24h' }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const { data } = (await response.json()) as { data: { short_url: string } };
  return data.short_url;
}

// A person's browser: a bot's visit (node's own user agent is one) is not a click.
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

async function redirectOf(shortUrl: string): Promise<{ status: number; location: string | null }> {
  const response = await fetch(shortUrl, { redirect: 'manual', headers: { 'User-Agent': BROWSER } });
  return { status: response.status, location: response.headers.get('location') };
}

beforeAll(async () => {
  expect(NODE_VERSION, 'the Dockerfile declares ARG NODE_VERSION=<line>').toMatch(/^\d+(\.\d+\.\d+)?$/);
  installTools();
  await runShown(join(ROOT, 'test/container/base-images.sh'), [NODE_VERSION]);
  const started = performance.now();
  await runShown(PODMAN[0] as string, [
    ...PODMAN.slice(1),
    'build',
    '--pull=never',
    // Docker's image format: OCI's has no HEALTHCHECK.
    '--format',
    'docker',
    '--network',
    'host',
    ...npmVolumes(),
    '--build-arg',
    `NODE_VERSION=${NODE_VERSION}`,
    '-t',
    IMAGE,
    ROOT,
  ]);
  const seconds = Math.round((performance.now() - started) / 1000);
  const bytes = Number(await podman('image', 'inspect', '--format', '{{.Size}}', IMAGE));
  console.log(`${IMAGE}: built in ${seconds} s, ${(bytes / 1e6).toFixed(0)} MB (Node.js ${NODE_VERSION})`);
}, 3_600_000);

afterAll(async () => {
  // --volumes: with them the anonymous /data volume of a container given none (on PostgreSQL).
  for (const name of containers) await podman('rm', '--force', '--ignore', '--volumes', name);
  await podman('volume', 'rm', '--force', volume).catch(() => undefined);
  rmSync(lent, { recursive: true, force: true });
});

describe('the container image on SQLite in a volume', () => {
  it('runs as node, stops on SIGTERM, and a new container on the same volume keeps every link', async () => {
    await podman('volume', 'create', volume);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    // The image's own HOST, PORT and DATABASE_URL; BASE_URL and API_KEY as a user sets them.
    const options = ['-p', `127.0.0.1:${port}:8080`, '-v', `${volume}:/data`];
    const first = await start([...options, '-e', `BASE_URL=${origin}`, '-e', `API_KEY=${API_KEY}`]);
    await waitForHealth(first, origin);

    const targets = ['https://example.com/one', 'https://example.org/two?x=1', 'https://example.net/three#top'];
    const shortUrls = await Promise.all(targets.map((target, i) => shorten(origin, target, `c${RUN_ID}${i}`)));
    expect(await redirectOf(shortUrls[0] as string)).toEqual({ status: 302, location: targets[0] });

    // The server is PID 1 (SIGTERM reaches it), as the node user, and so is the database it made.
    const status = await podman('exec', first, 'cat', '/proc/1/status');
    expect(status).toMatch(/^Uid:\s+1000\s+1000\s/m);
    expect(status).toMatch(/^Gid:\s+1000\s+1000\s/m);
    const command = (await podman('exec', first, 'cat', '/proc/1/cmdline')).split('\0').filter(Boolean);
    expect(command[0]).toBe('node');
    expect(command.at(-1)).toBe('dist/server/main.js');
    expect(await podman('exec', first, 'stat', '-c', '%u:%g %a', '/data', '/data/linklet.db')).toBe(
      '1000:1000 700\n1000:1000 600',
    );

    // What runs holds neither the build's borrowed npm settings nor the development dependencies.
    const leftovers = 'test -e /usr/local/etc/npmrc || test -e /etc/linklet-test-npm || test -e node_modules/vite';
    expect(await podmanExitCode('exec', first, 'sh', '-c', leftovers)).toBe(1);

    // docs/container.md's backup, taken while the server runs.
    await podman('exec', first, 'node', 'dist/server/process/backup-command.js', '/data/backup.db');
    expect(await podman('exec', first, 'stat', '-c', '%u %a', '/data/backup.db')).toBe('1000 600');
    await podman('exec', first, 'rm', '/data/backup.db');

    // The image's HEALTHCHECK runs and finds the server; the same check fails with no server.
    expect(await podmanExitCode('healthcheck', 'run', first)).toBe(0);
    expect(await podman('inspect', '--format', '{{.State.Health.Status}}', first)).toBe('healthy');
    expect(await podmanExitCode('exec', '-e', 'PORT=1', first, 'node', 'dist/server/process/health-check.js')).toBe(1);

    // A click just before SIGTERM: its count is still in memory, and the shutdown writes it.
    expect(await redirectOf(shortUrls[1] as string)).toEqual({ status: 302, location: targets[1] });
    const stopped = await stop(first);
    console.log(`SQLite, SIGTERM: ${stopped.summary}`);
    expect(stopped.exitCode, stopped.log).toBe(0);
    expect(stopped.log).toContain('"msg":"shutting down"');
    expect(stopped.log).toContain('"msg":"stopped"');

    // A new container on the same volume.
    const second = await start([...options, '-e', `BASE_URL=${origin}`, '-e', `API_KEY=${API_KEY}`]);
    await waitForHealth(second, origin);
    // Both clicks were kept: the first's batch written a second after it, the second's at SIGTERM.
    for (const i of [0, 1, 2]) {
      const link = await fetch(`${origin}/api/v1/links/c${RUN_ID}${i}`, { headers: { 'X-API-Key': API_KEY } });
      expect(link.status).toBe(200);
      expect(((await link.json()) as { data: { clicks: number } }).data.clicks).toBe(i === 2 ? 0 : 1);
    }
    for (const [i, shortUrl] of shortUrls.entries()) {
      expect(await redirectOf(shortUrl)).toEqual({ status: 302, location: targets[i] });
    }
    const again = await stop(second);
    expect(again.exitCode, again.log).toBe(0);
  }, 300_000);
});

describe('the container image on PostgreSQL and Redis', () => {
  const postgres = usePostgresSchema('container');

  it('takes both from the environment, creates and redirects a link, and stops on SIGTERM', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    // This machine's PostgreSQL and Redis are on its loopback: the container shares its network.
    const name = await start([
      '--network',
      'host',
      ...['-e', 'HOST=127.0.0.1', '-e', `PORT=${port}`, '-e', `BASE_URL=${origin}`, '-e', `API_KEY=${API_KEY}`],
      ...['-e', `DATABASE_URL=${postgres.url()}`, '-e', `REDIS_URL=${REDIS_URL}`, '-e', 'RATE_LIMIT_PER_MINUTE=600'],
    ]);
    await waitForHealth(name, origin);
    const health = (await (await fetch(`${origin}/health`)).json()) as { rate_limits?: string };
    expect(health.rate_limits).toBe('redis');

    const target = 'https://example.com/on-postgres';
    const shortUrl = await shorten(origin, target, `p${RUN_ID}`);
    expect(await redirectOf(shortUrl)).toEqual({ status: 302, location: target });
    const rows = await postgres.admin.query(`SELECT original_url FROM ${postgres.schema}.links WHERE code = $1`, [
      `p${RUN_ID}`,
    ]);
    expect(rows.rows).toEqual([{ original_url: target }]);
    expect(await podmanExitCode('healthcheck', 'run', name)).toBe(0);

    const stopped = await stop(name);
    console.log(`PostgreSQL, SIGTERM: ${stopped.summary}`);
    expect(stopped.exitCode, stopped.log).toBe(0);
    expect(stopped.log).toContain('"msg":"stopped"');
  }, 300_000);
});
