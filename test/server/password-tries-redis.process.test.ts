import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { usePostgresSchema } from './postgres-schema.js';
import { useServerProcesses } from './use-server-processes.js';

// Password tries counted where the rate limits are: two server processes on one PostgreSQL
// schema sharing the real Redis allow 5 wrong tries a minute per client and link in all, not 5
// each; and with Redis out of reach each process still counts them itself.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const NO_REDIS = 'redis://127.0.0.1:1';
const ADMIN = 'admin-key-for-the-shared-tries-test';
const SECRET = 'the right one';

const servers = useServerProcesses('password-tries-redis');
const postgres = usePostgresSchema('password_tries');
const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
afterAll(() => redis.disconnect());

/** A try from `address` (behind the trusted proxy) with `password` in X-Link-Password. */
const tryAt = (origin: string, code: string, address: string, password: string) =>
  fetch(`${origin}/${code}`, {
    redirect: 'manual',
    headers: { 'X-Link-Password': password, 'X-Forwarded-For': address },
  }).then((response) => response.status);

async function protectedLink(origin: string, code: string) {
  const made = await fetch(`${origin}/api/v1/shorten`, {
    method: 'POST',
    headers: { 'X-API-Key': ADMIN, 'Content-Type': 'application/json' },
    body: JSON.stringify({ original_url: `https://example.com/${code}`, custom_code: code, password: SECRET }),
  });
  expect(made.status).toBe(201);
}

describe('password tries with REDIS_URL', () => {
  it('refuses the 6th wrong try across two instances, and keeps no address in Redis', async () => {
    const env = {
      DATABASE_URL: postgres.url(),
      API_KEY: ADMIN,
      RATE_LIMIT_PER_MINUTE: '1000',
      TRUSTED_PROXIES: '127.0.0.1',
      REDIS_URL,
    };
    const [a, b] = [await servers.start(env), await servers.start(env)];
    await protectedLink(a.origin, 'shared');
    const address = `2001:db8:${randomBytes(2).toString('hex')}:9::1`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await tryAt(i % 2 ? b.origin : a.origin, 'shared', address, 'wrong'));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(await tryAt(a.origin, 'shared', address, SECRET)).toBe(429);
    expect(await tryAt(b.origin, 'shared', address, SECRET)).toBe(429);
    // Another client is not held by it, on either instance.
    expect(await tryAt(b.origin, 'shared', '198.51.100.77', SECRET)).toBe(302);

    await redis.connect();
    const keys = await redis.keys('linklet:rl:password*');
    expect(keys.length).toBeGreaterThanOrEqual(2);
    const prefix = address.split(':').slice(0, 3).join(':');
    expect(keys.filter((key) => key.includes(prefix) || key.includes('198.51.100.77'))).toEqual([]);
  }, 90_000); // two processes starting on PostgreSQL

  it('counts them in each process while Redis is out of reach, never letting them all through', async () => {
    const server = await servers.start({
      DATABASE_URL: `sqlite:${servers.freshDb()}`,
      API_KEY: ADMIN,
      RATE_LIMIT_PER_MINUTE: '1000',
      REDIS_URL: NO_REDIS,
    });
    await protectedLink(server.origin, 'alone');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await tryAt(server.origin, 'alone', '127.0.0.1', 'wrong'));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  }, 60_000);
});
