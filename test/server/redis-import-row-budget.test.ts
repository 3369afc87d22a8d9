import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { afterAll, describe, expect, it } from 'vitest';
import { createImportRowBudget } from '../../server/http/import-row-budget.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(REDIS_URL);
afterAll(() => redis.disconnect());

const budgetOn = (limiter: RateLimiterMemory | RateLimiterRedis, rowsPerMinute: number) =>
  createImportRowBudget({
    limiter,
    rowsPerMinute,
    ready: async () => {},
    onFailure: (error) => {
      throw error;
    },
  });

describe.each([
  ['in memory', () => new RateLimiterMemory({ points: 100, duration: 60 })],
  [
    'in Redis',
    () => new RateLimiterRedis({ storeClient: redis, keyPrefix: 'linklet:test:rows', points: 100, duration: 60 }),
  ],
])('an import budget %s', (_name, limiterOf) => {
  it('grants what is left of a batch, takes back what was not created, and says when it is whole again', async () => {
    const budget = budgetOn(limiterOf(), 100);
    const subject = `owner:${randomBytes(6).toString('hex')}`;
    expect(await budget.left(subject)).toEqual({ rows: 100, retryAfterSeconds: 60 });
    expect(await budget.take(subject, 70)).toBe(70);
    expect(await budget.take(subject, 70)).toBe(30); // only what fits; the other 40 are not counted
    expect((await budget.left(subject)).rows).toBe(0);
    await budget.giveBack(subject, 10);
    expect(await budget.take(subject, 20)).toBe(10);
    const { rows, retryAfterSeconds } = await budget.left(subject);
    expect(rows).toBe(0);
    expect(retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(retryAfterSeconds).toBeLessThanOrEqual(60);
  });
});

describe('an import budget in Redis', () => {
  it('is one budget for every instance: concurrent batches never get more than it in all', async () => {
    const subject = `owner:${randomBytes(6).toString('hex')}`;
    const instances = [1, 2, 3].map(() =>
      budgetOn(
        new RateLimiterRedis({ storeClient: redis, keyPrefix: 'linklet:test:rows', points: 100, duration: 60 }),
        100,
      ),
    );
    const granted = await Promise.all(
      Array.from({ length: 12 }, (_, at) => (instances[at % 3] as (typeof instances)[number]).take(subject, 30)),
    );
    expect(granted.reduce((sum, rows) => sum + rows, 0)).toBe(100);
  });
});
