import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/server-process.mjs';
import { usePostgresSchema } from './postgres-schema.js';
import { useServerProcesses } from './use-server-processes.js';

const { schema, admin, url: postgresUrl } = usePostgresSchema('linklet_owners');

const ADMIN = 'admin-key-for-owner-tests';

const { start, freshDb } = useServerProcesses('owners');

/** A request to a server as the holder of `key`. */
function call(server: RunningServer, method: string, path: string, key?: string, body?: unknown) {
  return fetch(`${server.origin}${path}`, {
    method,
    redirect: 'manual',
    headers: { ...(key ? { 'X-API-Key': key } : {}), 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function makeKey(server: RunningServer, name: string): Promise<string> {
  const response = await call(server, 'POST', '/api/v1/keys', ADMIN, { name });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { key: string } }).data.key;
}

async function makeLink(server: RunningServer, key: string, code: string, url = `https://example.com/${code}`) {
  const response = await call(server, 'POST', '/api/v1/shorten', key, { original_url: url, custom_code: code });
  expect(response.status).toBe(201);
}

/** How long until `check` holds (polling every 20 ms), failing after 3 s. */
async function msUntil(check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > 3000) throw new Error('still not seen after 3 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - started;
}

/** The status and Location a short URL answers on a server right now. */
const redirectOf = async (server: RunningServer, code: string) => {
  const response = await call(server, 'GET', `/${code}`);
  await response.arrayBuffer();
  return `${response.status} ${response.headers.get('location') ?? ''}`;
};

describe("isolation: an owner never sees, changes or deletes another owner's link", () => {
  it("answers every endpoint and method with 404 (links) or 403 (keys) for another owner's key", async () => {
    const server = await start({ DATABASE_URL: `sqlite:${freshDb()}`, API_KEY: ADMIN });
    const alice = await makeKey(server, 'alice');
    const bob = await makeKey(server, 'bob');
    await makeLink(server, alice, 'alices');
    const missing = await call(server, 'GET', '/api/v1/links/nolink', bob);
    // A missing link's message, for the code a path names: another owner's link must read the same.
    const missingMessage = ((await missing.json()) as { message: string }).message;
    const messageFor = (path: string) => missingMessage.replace('nolink', path.split('/').at(-1) as string);

    const table: Array<[method: string, path: string, body: unknown, status: number]> = [
      ['GET', '/api/v1/links/alices', undefined, 404],
      ['HEAD', '/api/v1/links/alices', undefined, 404],
      ['PATCH', '/api/v1/links/alices', { original_url: 'https://evil.example/' }, 404],
      ['PATCH', '/api/v1/links/alices', { disabled: true }, 404],
      ['DELETE', '/api/v1/links/alices', undefined, 404],
      ['GET', '/api/v1/links/ALICES', undefined, 404],
      ['POST', '/api/v1/keys', { name: 'mallory' }, 403],
      ['GET', '/api/v1/keys', undefined, 403],
      ['DELETE', '/api/v1/keys/1', undefined, 403],
    ];
    for (const [method, path, body, status] of table) {
      const response = await call(server, method, path, bob, body);
      expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} ${status}`);
      if (status === 404 && method !== 'HEAD') {
        expect(((await response.json()) as { message: string }).message).toBe(messageFor(path));
      } else await response.arrayBuffer();
    }
    const listed = (await (await call(server, 'GET', '/api/v1/links?search=alice', bob)).json()) as {
      data: { links: unknown[] };
    };
    expect(listed.data.links).toEqual([]);
    const changes = await call(
      server,
      'GET',
      `/api/v1/links?changed_since=${new Date(Date.now() - 60_000).toISOString()}`,
      bob,
    );
    expect(((await changes.json()) as { data: { links: unknown[] } }).data.links).toEqual([]);
    // alice's link is as she made it, and her key still works
    expect(await redirectOf(server, 'alices')).toBe('302 https://example.com/alices');
    expect((await call(server, 'GET', '/api/v1/links/alices', alice)).status).toBe(200);
  });
});

describe.each([
  ['two processes on one SQLite file', () => ({ DATABASE_URL: `sqlite:${freshDb()}`, API_KEY: ADMIN })],
  ['two servers on one PostgreSQL', () => ({ DATABASE_URL: postgresUrl(), API_KEY: ADMIN })],
])('%s', (_name, envOf) => {
  const startPair = async () => {
    const env = envOf();
    const first = await start(env);
    const second = await start(env);
    return [first, second] as const;
  };

  it('follows a new target, a disable and a delete made on the other within 1 s, its cache warm', async () => {
    const [a, b] = await startPair();
    const key = await makeKey(a, 'alice');
    const code = `f${randomBytes(3).toString('hex')}`;
    await makeLink(a, key, code);
    for (let i = 0; i < 3; i++) expect(await redirectOf(b, code)).toBe(`302 https://example.com/${code}`);

    expect(
      (await call(a, 'PATCH', `/api/v1/links/${code}`, key, { original_url: 'https://moved.example/' })).status,
    ).toBe(200);
    expect(await msUntil(async () => (await redirectOf(b, code)) === '302 https://moved.example/')).toBeLessThan(1000);
    for (let i = 0; i < 3; i++) await redirectOf(b, code); // warm again

    expect((await call(a, 'PATCH', `/api/v1/links/${code}`, key, { disabled: true })).status).toBe(200);
    expect(await msUntil(async () => (await redirectOf(b, code)).startsWith('410'))).toBeLessThan(1000);
    expect((await call(b, 'PATCH', `/api/v1/links/${code}`, key, { disabled: false })).status).toBe(200);
    expect(await msUntil(async () => (await redirectOf(a, code)).startsWith('302'))).toBeLessThan(1000);
    for (let i = 0; i < 3; i++) await redirectOf(b, code);

    expect((await call(a, 'DELETE', `/api/v1/links/${code}`, key)).status).toBe(200);
    expect(await msUntil(async () => (await redirectOf(b, code)).startsWith('404'))).toBeLessThan(1000);
  });

  it('refuses a key revoked on the other at once', async () => {
    const [a, b] = await startPair();
    const key = await makeKey(a, 'revokee');
    expect((await call(b, 'GET', '/api/v1/me', key)).status).toBe(200);
    const listed = (await (await call(a, 'GET', '/api/v1/keys', ADMIN)).json()) as {
      data: { keys: Array<{ id: number; name: string }> };
    };
    const id = listed.data.keys.find((entry) => entry.name === 'revokee')?.id;
    expect((await call(a, 'DELETE', `/api/v1/keys/${id}`, ADMIN)).status).toBe(200);
    expect(await msUntil(async () => (await call(b, 'GET', '/api/v1/me', key)).status === 401)).toBeLessThan(1000);
  });

  it('gives two concurrent deletes and two concurrent patches one result each, never a 500', async () => {
    const [a, b] = await startPair();
    const key = await makeKey(a, 'racer');
    for (let round = 0; round < 5; round++) {
      const code = `r${round}${randomBytes(3).toString('hex')}`;
      await makeLink(a, key, code);
      const patches = await Promise.all([
        call(a, 'PATCH', `/api/v1/links/${code}`, key, { original_url: 'https://one.example/' }),
        call(b, 'PATCH', `/api/v1/links/${code}`, key, { original_url: 'https://two.example/' }),
      ]);
      expect(patches.map((response) => response.status)).toEqual([200, 200]);
      const stored = (await (await call(a, 'GET', `/api/v1/links/${code}`, key)).json()) as {
        data: { original_url: string };
      };
      expect(['https://one.example/', 'https://two.example/']).toContain(stored.data.original_url);
      const deletes = await Promise.all([
        call(a, 'DELETE', `/api/v1/links/${code}`, key),
        call(b, 'DELETE', `/api/v1/links/${code}`, key),
        call(a, 'PATCH', `/api/v1/links/${code}`, key, { disabled: true }),
      ]);
      const statuses = deletes.map((response) => response.status);
      expect(statuses.slice(0, 2).sort()).toEqual([200, 404]);
      expect([200, 404]).toContain(statuses[2]);
      expect(await redirectOf(a, code)).toBe('404 ');
    }
  });
});

describe('PostgreSQL: a lost notification connection', () => {
  it('drops the whole cache, so a change it was not told of is served within 1 s', async () => {
    const a = await start({ DATABASE_URL: postgresUrl(), API_KEY: ADMIN });
    const key = await makeKey(a, 'quiet');
    await makeLink(a, key, 'quiet');
    for (let i = 0; i < 3; i++) expect(await redirectOf(a, 'quiet')).toBe('302 https://example.com/quiet');
    // The listening connection dies; the change below sends no notification at all.
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
      `linklet-listener-${a.process.pid}`,
    ]);
    await admin.query(`UPDATE ${schema}.links SET original_url = 'https://behind.example/' WHERE code_key = 'quiet'`);
    expect(await msUntil(async () => (await redirectOf(a, 'quiet')) === '302 https://behind.example/')).toBeLessThan(
      1000,
    );
  });
});
