import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresRelay } from '../contract/postgres-relay.js';
import { useServerProcesses } from './use-server-processes.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `linklet_server_${randomBytes(4).toString('hex')}`;
// Every connection of the server's pool gets this schema first on its search path.
const serverUrl = (port?: number) => {
  const url = new URL(DATABASE_URL);
  if (port !== undefined) {
    url.hostname = '127.0.0.1';
    url.port = String(port);
  }
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
};

const admin = new pg.Client({ connectionString: DATABASE_URL });
const { start } = useServerProcesses('postgres');
beforeAll(async () => {
  await admin.connect().catch((error: Error) => {
    throw new Error(`PostgreSQL at TEST_DATABASE_URL (${DATABASE_URL}) is not reachable: ${error.message}`);
  });
  await admin.query(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
});

describe('two server processes on one PostgreSQL database', () => {
  it('share links and let exactly one instance win a contested code', async () => {
    const [a, b] = await Promise.all([start({ DATABASE_URL: serverUrl() }), start({ DATABASE_URL: serverUrl() })]);

    // b looks first and finds nothing: a miss is never cached, so a's link shows up at once.
    expect((await fetch(`${b.origin}/%EA%B3%B5%EC%9C%A0`, { redirect: 'manual' })).status).toBe(404);
    const made = await fetch(`${a.origin}/api/v1/shorten`, {
      method: 'POST',
      body: JSON.stringify({ original_url: 'https://example.com/pg', custom_code: '공유' }),
    });
    expect(made.status).toBe(201);
    for (const method of ['GET', 'HEAD', 'GET']) {
      const seen = await fetch(`${b.origin}/%EA%B3%B5%EC%9C%A0`, { method, redirect: 'manual' });
      expect(seen.status).toBe(302);
      expect(seen.headers.get('location')).toBe('https://example.com/pg');
    }

    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${i % 2 ? a.origin : b.origin}/api.php`, {
          method: 'POST',
          body: JSON.stringify({ original_url: `https://example.com/${i}`, custom_code: 'contested' }),
        }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);

    const health = await fetch(`${b.origin}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const rows = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.links`);
    expect(rows.rows[0].n).toBe(2);
  });
});

describe('a server whose PostgreSQL goes away', () => {
  it('answers 503 with Retry-After on /health, creates and uncached redirects while it is gone, and recovers', async () => {
    let relay = await startPostgresRelay(new URL(DATABASE_URL));
    const server = await start({ DATABASE_URL: serverUrl(relay.port) });
    const create = () =>
      fetch(`${server.origin}/api/v1/shorten`, {
        method: 'POST',
        body: JSON.stringify({ original_url: 'https://example.com/x' }),
      });
    expect((await fetch(`${server.origin}/health`)).status).toBe(200);

    await relay.cut();
    const health = await fetch(`${server.origin}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'error', message: 'The link store is not answering.' });
    const failed = await create();
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('5');
    const body = await failed.json();
    expect(body).toEqual({
      status: 'error',
      message: 'The link store (PostgreSQL) cannot be reached right now; try again shortly.',
    });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|5432/i);
    // The cause is in the log, under the id the client was given.
    const requestId = failed.headers.get('x-request-id');
    const [logged] = await server.waitForLogs(
      (entry) => entry.msg === 'store unavailable' && entry.reqId === requestId,
      1,
    );
    expect(logged).toMatchObject({
      level: 40,
      reqId: requestId,
      err: expect.objectContaining({ message: expect.any(String) }),
    });
    // A redirect that misses the cache needs the database too: 503 as well, never 500.
    expect((await fetch(`${server.origin}/nothing-cached`)).status).toBe(503);

    relay = await startPostgresRelay(new URL(DATABASE_URL), relay.port);
    expect((await fetch(`${server.origin}/health`)).status).toBe(200);
    expect((await create()).status).toBe(201);
    await relay.cut();
  });
});

describe('a server whose PostgreSQL connection drops under a create', () => {
  it('answers 201 for the link it committed before the answer was lost, and makes it only once', async () => {
    const relay = await startPostgresRelay(new URL(DATABASE_URL));
    try {
      const server = await start({ DATABASE_URL: serverUrl(relay.port) });
      await admin.query(`TRUNCATE ${schema}.links`);
      const cut = relay.cutAfterAnswer('linklet_claim');
      const made = await fetch(`${server.origin}/api/v1/shorten`, {
        method: 'POST',
        body: JSON.stringify({ original_url: 'https://example.com/once' }),
      });
      await cut;
      expect(made.status).toBe(201);
      const { data } = await made.json();
      const rows = await admin.query(`SELECT code FROM ${schema}.links`);
      expect(rows.rows).toEqual([{ code: data.code }]);
      const redirect = await fetch(`${server.origin}/${data.code}`, { redirect: 'manual' });
      expect(redirect.headers.get('location')).toBe('https://example.com/once');
    } finally {
      await relay.cut();
    }
  });
});

describe('DATABASE_POOL_SIZE', () => {
  it('caps the connections one process opens, however many requests wait', async () => {
    const name = `linklet_pool_${randomBytes(4).toString('hex')}`;
    const url = new URL(serverUrl());
    url.searchParams.set('application_name', name);
    const server = await start({ DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: '3' });
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${server.origin}/api/v1/shorten`, {
          method: 'POST',
          body: JSON.stringify({ original_url: `https://example.com/pool/${i}` }),
        }).then((response) => response.status),
      ),
    );
    expect(statuses.every((status) => status === 201)).toBe(true);
    // The change feed's own connection (its last query `LISTEN …`) takes the same application_name
    // from the URL; it is not the pool's, so it is not counted.
    const open = await admin.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND query NOT LIKE 'LISTEN %'",
      [name],
    );
    // Forty requests at once would open ten (the default); the pool stops at three.
    expect(open.rows[0].n).toBeGreaterThanOrEqual(2);
    expect(open.rows[0].n).toBeLessThanOrEqual(3);
  });
});
