import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { rateLimitSubject } from '../../server/http/client-address.js';
import { createRateLimiter, isExempt, type RateLimiter } from '../../server/http/rate-limit.js';
import { useServerProcesses } from './use-server-processes.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A port nothing listens on: Redis out of reach. */
const NO_REDIS = 'redis://127.0.0.1:1';
/** Client names no other test (or earlier run sharing the Redis) has used. */
const fresh = (name: string) => `${name}-${randomBytes(6).toString('hex')}`;

const limiters: RateLimiter[] = [];
const limiter = (options: Parameters<typeof createRateLimiter>[0]) => {
  const made = createRateLimiter({ keySecret: 'the-deployment-secret-of-these-tests', ...options });
  limiters.push(made);
  return made;
};
afterAll(() => {
  for (const made of limiters) made.close();
});

describe('who a limit counts', () => {
  it('counts an IPv6 client by its /64, whatever the spelling, and IPv4 by its address', () => {
    expect(rateLimitSubject('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitSubject('2001:0db8:0001:0002:ffff:eeee:dddd:cccc')).toBe('2001:db8:1:2::/64');
    expect(rateLimitSubject('2001:DB8:1:2:0:0:0:9%eth0')).toBe('2001:db8:1:2::/64');
    expect(rateLimitSubject('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitSubject('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitSubject('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(rateLimitSubject('203.0.113.5')).toBe('203.0.113.5');
    expect(rateLimitSubject('::ffff:203.0.113.5')).toBe('203.0.113.5');
  });

  it('never counts health checks (with or without a query) or CORS preflights', () => {
    expect(isExempt({ method: 'GET', url: '/health' })).toBe(true);
    expect(isExempt({ method: 'GET', url: '/health?probe=lb' })).toBe(true);
    expect(isExempt({ method: 'OPTIONS', url: '/api/v1/shorten' })).toBe(true);
    expect(isExempt({ method: 'GET', url: '/healthy' })).toBe(false);
    expect(isExempt({ method: 'GET', url: '/api/v1/shorten' })).toBe(false);
  });
});

describe.each([
  ['in memory', undefined],
  ['in Redis', REDIS_URL],
])('rate limits %s', (_name, redisUrl) => {
  it('lets a client make its requests per minute, then says how long to wait; IPv6 by /64', async () => {
    const limits = limiter({ perMinute: 3, redisUrl });
    const prefix = `2001:db8:${randomBytes(2).toString('hex')}:1`;
    const waits = [];
    for (const suffix of ['::1', '::2', ':ffff::3', '::4']) waits.push(await limits.take(`${prefix}${suffix}`));
    expect(waits.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(waits[3]).toBeGreaterThanOrEqual(1);
    expect(waits[3]).toBeLessThanOrEqual(60);
    expect(await limits.take(`${prefix.replace(/1$/, '2')}::1`)).toBeUndefined(); // the next /64 is another client
    expect(limits.state()).toBe(redisUrl ? 'redis' : 'memory');
  });

  it('limits each key on top of its client', async () => {
    const limits = limiter({ perMinute: 100, perKeyPerMinute: 2, redisUrl });
    const [client, key, other] = [fresh('client'), fresh('key'), fresh('key')];
    expect([await limits.take(client, key), await limits.take(client, key)]).toEqual([undefined, undefined]);
    expect(await limits.take(client, key)).toBeGreaterThanOrEqual(1);
    expect(await limits.take(fresh('elsewhere'), key)).toBeGreaterThanOrEqual(1); // the key, from anywhere
    expect(await limits.take(client, other)).toBeUndefined();
  });
});

describe('rate limits across instances', () => {
  it('counts once in Redis for every instance, not once per instance', async () => {
    const [first, second] = [
      limiter({ perMinute: 4, redisUrl: REDIS_URL }),
      limiter({ perMinute: 4, redisUrl: REDIS_URL }),
    ];
    const client = fresh('shared');
    const waits = [];
    for (let i = 0; i < 6; i++) waits.push(await (i % 2 ? first : second).take(client));
    expect(waits.filter((wait) => wait === undefined)).toHaveLength(4);
  });

  it('lets every request through while Redis is out of reach, and says so', async () => {
    const limits = limiter({ perMinute: 1, redisUrl: NO_REDIS });
    for (let i = 0; i < 3; i++) expect(await limits.take('cut-off')).toBeUndefined();
    expect(limits.state()).toBe('redis unreachable: not enforced');
  });
});

describe('rate limits in server processes', () => {
  const { start, freshDb } = useServerProcesses('rate-limit');
  const asClient = (origin: string, address: string, path = '/missing') =>
    fetch(`${origin}${path}`, { headers: { 'X-Forwarded-For': address } }).then((response) => response.status);

  it('holds the limit across two servers sharing Redis, for an IPv6 client rotating in its /64', async () => {
    const env = {
      DATABASE_URL: `sqlite:${freshDb()}`,
      RATE_LIMIT_PER_MINUTE: '3',
      TRUSTED_PROXIES: '127.0.0.1',
      REDIS_URL,
    };
    const [a, b] = [await start(env), await start(env)];
    const prefix = `2001:db8:${randomBytes(2).toString('hex')}:7`;
    const statuses = [];
    for (let i = 1; i <= 5; i++) statuses.push(await asClient(i % 2 ? a.origin : b.origin, `${prefix}::${i}`));
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    expect(await (await fetch(`${a.origin}/health`)).json()).toEqual({ status: 'ok', rate_limits: 'redis' });
  });

  it('keeps no client address in Redis, in any spelling: clients are named by a keyed hash', async () => {
    const redis = new Redis(REDIS_URL);
    try {
      const keysNow = async () => new Set(await redis.keys('linklet:*'));
      const before = await keysNow();
      const server = await start({
        DATABASE_URL: `sqlite:${freshDb()}`,
        RATE_LIMIT_PER_MINUTE: '100',
        TRUSTED_PROXIES: '127.0.0.1',
        REDIS_URL,
      });
      const [a, b] = [...randomBytes(2)];
      const v4 = `198.51.${a}.${b}`;
      const group = randomBytes(2).toString('hex').replace(/^0+/, '') || '1';
      const v6 = `2001:db8:${group}:7::1`;
      expect(await asClient(server.origin, v4)).toBe(404);
      expect(await asClient(server.origin, v6)).toBe(404);
      expect(await asClient(server.origin, `::ffff:${v4}`)).toBe(404);
      const added = [...(await keysNow())].filter((key) => !before.has(key));
      expect(added.filter((key) => key.startsWith('linklet:rl:client:')).length).toBeGreaterThanOrEqual(2);
      const spellings = [
        v4,
        v4
          .split('.')
          .map((part) => Number(part).toString(16).padStart(2, '0'))
          .join(''),
        `2001:db8:${group}:7`,
        `2001:0db8:${group.padStart(4, '0')}:0007`,
        `2001:db8:${group}:7::/64`,
        v6,
      ];
      for (const key of added) for (const spelling of spellings) expect(key.toLowerCase()).not.toContain(spelling);
    } finally {
      redis.disconnect();
    }
  }, 60_000);

  it('keeps redirecting and creating with Redis out of reach, logs it, and /health says so', async () => {
    const server = await start({
      DATABASE_URL: `sqlite:${freshDb()}`,
      RATE_LIMIT_PER_MINUTE: '1',
      REDIS_URL: NO_REDIS,
    });
    for (let i = 0; i < 3; i++) {
      const made = await fetch(`${server.origin}/api/v1/shorten`, {
        method: 'POST',
        body: JSON.stringify({ original_url: `https://example.com/${i}`, custom_code: `open${i}` }),
      });
      expect(made.status).toBe(201);
      expect((await fetch(`${server.origin}/open${i}`, { redirect: 'manual' })).status).toBe(302);
    }
    const health = await fetch(`${server.origin}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', rate_limits: 'redis unreachable: not enforced' });
    const warned = await server.waitForLogs((entry) => String(entry.msg).startsWith('Redis is out of reach'), 1);
    expect(warned.length).toBeGreaterThanOrEqual(1);
  });
});
