import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort, type RunningServer, runFailingServer, startServer } from '../../scripts/server-process.mjs';
import { usePostgresSchema } from './postgres-schema.js';

const { url: postgresUrl } = usePostgresSchema('linklet_cluster');

const dir = mkdtempSync(join(tmpdir(), 'linklet-cluster-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop('SIGKILL')));
});

/** A GET on a connection of its own (fetch would reuse one, and so one worker). */
function getOnNewConnection(origin: string, path: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    const req = httpRequest({ host: hostname, port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    req.end();
  });
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.each([
  ['SQLite', () => `sqlite:${join(dir, `cluster-${randomBytes(4).toString('hex')}.db`)}`],
  ['PostgreSQL', postgresUrl],
])('WORKERS=2 on %s', (_, databaseUrl) => {
  it('serves from two workers, replaces a killed one, and stops both on SIGTERM with exit 0', async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl(), WORKERS: '2' });
    running.push(server);
    const primaryPid = server.process.pid as number;
    const serving = server.logs.find((entry) => String(entry.msg).startsWith('Linklet is serving'));
    expect(serving).toMatchObject({ pid: primaryPid, workers: 2 });
    const workerPids = () =>
      server.logs.filter((entry) => entry.msg === 'worker listening').map((entry) => entry.pid as number);
    // Each process writes its own lines: a worker's may come after the primary's announcement.
    await server.waitForLogs((entry) => entry.msg === 'worker listening', 2);
    expect(new Set(workerPids()).size).toBe(2);
    expect(workerPids()).not.toContain(primaryPid);

    // A link made by one worker resolves on the other at once; connections alternate workers.
    const made = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      body: JSON.stringify({ original_url: 'https://example.com/cluster', custom_code: '클러스터' }),
    });
    expect(made.status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => getOnNewConnection(server.origin, '/%ED%81%B4%EB%9F%AC%EC%8A%A4%ED%84%B0')),
    );
    expect(answers.every((answer) => answer.status === 302 && answer.location === 'https://example.com/cluster')).toBe(
      true,
    );
    const requests = await server.waitForLogs((entry) => entry.msg === 'request' && entry.status === 302, 8);
    expect(new Set(requests.map((entry) => entry.pid))).toEqual(new Set(workerPids()));

    // One custom code raced on both workers: exactly one winner.
    const statuses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        fetch(`${server.origin}/api/v1/shorten`, {
          method: 'POST',
          headers: { Connection: 'close' },
          body: JSON.stringify({ original_url: `https://example.com/${i}`, custom_code: 'raced' }),
        }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(15);

    // A crashed worker is replaced, and the service keeps answering meanwhile.
    const [victim, survivor] = workerPids() as [number, number];
    process.kill(victim, 'SIGKILL');
    const [exited] = await server.waitForLogs((entry) => entry.msg === 'worker exited; starting another', 1);
    expect(exited).toMatchObject({ level: 50, workerPid: victim, signal: 'SIGKILL' });
    expect((await getOnNewConnection(server.origin, '/health')).status).toBe(200);
    await server.waitForLogs((entry) => entry.msg === 'worker listening', 3);
    const replacement = workerPids().find((pid) => pid !== victim && pid !== survivor) as number;
    expect(isAlive(replacement)).toBe(true);
    for (let i = 0; i < 4; i++) expect((await getOnNewConnection(server.origin, '/health')).status).toBe(200);

    expect(await server.stop('SIGTERM')).toBe(0);
    for (const pid of [survivor, replacement]) expect(isAlive(pid)).toBe(false);
    const stopped = server.logs.filter((entry) => entry.msg === 'stopped').map((entry) => entry.pid);
    expect(new Set(stopped)).toEqual(new Set([primaryPid, survivor, replacement]));
  });
});

describe('WORKERS', () => {
  it('forwards SIGINT to the workers and exits 0', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'sigint.db')}`, WORKERS: '2' });
    running.push(server);
    expect(await server.stop('SIGINT')).toBe(0);
    const stopped = server.logs.filter((entry) => entry.msg === 'stopped');
    expect(stopped).toHaveLength(3);
  });

  it('exits 1 when the workers cannot listen (the port is taken)', async () => {
    const port = await freePort();
    const squatter = createServer().listen(port, '127.0.0.1');
    try {
      const { code } = await runFailingServer({
        DATABASE_URL: `sqlite:${join(dir, 'taken.db')}`,
        WORKERS: '2',
        PORT: String(port),
      });
      expect(code).toBe(1);
    } finally {
      squatter.close();
    }
  });

  it.each([['0'], ['-1'], ['two'], ['1.5']])('refuses WORKERS=%s with a message and exit code 1', async (workers) => {
    const { code, stderr } = await runFailingServer({
      DATABASE_URL: `sqlite:${join(dir, 'bad.db')}`,
      WORKERS: workers,
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/WORKERS/);
  });
});
