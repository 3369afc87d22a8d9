import type { Server } from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, type RequestEnv } from '../../core/handler.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createHttpServer } from '../../server/http/http-server.js';
import { createRequestLog } from '../../server/http/request-log.js';
import { withLinkCache } from '../../server/stores/cache/link-cache.js';
import { rawRequest } from '../raw-http.js';

// The fast path and the handler must count the same requests as clicks: two servers on one store,
// one taking short URLs down the Node fast path, the other sending everything to the handler.
const NOW = Date.UTC(2026, 0, 31, 12);
const DAY = 86_400_000;

interface Counting {
  origin: string;
  server: Server;
  clicks: Array<[string, number]>;
  handlerCalls: () => number;
}

async function serve(fastPath: boolean): Promise<Counting> {
  const store = withLinkCache(createMemoryLinkStore(), { maxEntries: 100, maxAgeMs: 60_000, now: () => NOW });
  await store.create(
    { code: 'Promo', codeKey: 'promo', originalUrl: 'https://example.com/', createdAt: NOW, expiresAt: NOW + DAY },
    NOW,
  );
  await store.create(
    {
      code: 'old',
      codeKey: 'old',
      originalUrl: 'https://example.com/old',
      createdAt: NOW - 2 * DAY,
      expiresAt: NOW - DAY,
    },
    NOW - 2 * DAY,
  );
  const clicks: Array<[string, number]> = [];
  const onClick = (codeKey: string, at: number) => clicks.push([codeKey, at]);
  const handler = createHandler({ store, baseUrl: 'https://sho.rt', now: () => NOW, onClick });
  let calls = 0;
  const counted = (request: Request, env?: RequestEnv) => {
    calls++;
    return handler(request, env);
  };
  const server = createHttpServer(counted, {
    log: createRequestLog(pino({ level: 'silent' })),
    ...(fastPath && { shortUrls: { store, now: () => NOW, onClick } }),
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { origin, server, clicks, handlerCalls: () => calls };
}

let fast: Counting;
let slow: Counting;
beforeAll(async () => {
  [fast, slow] = await Promise.all([serve(true), serve(false)]);
});
afterAll(() => {
  fast.server.close();
  slow.server.close();
});

describe('clicks on the fast path and through the handler', () => {
  it('count the same requests: GETs answered 302, not HEADs, 404s, 410s or prefetches', async () => {
    const requests: Array<{ method: string; path: string; headers?: Record<string, string> }> = [
      { method: 'GET', path: '/promo' },
      { method: 'GET', path: '/PROMO/?x=1' },
      { method: 'HEAD', path: '/promo' },
      { method: 'GET', path: '/nothing' },
      { method: 'GET', path: '/old' },
      { method: 'GET', path: '/promo', headers: { 'Sec-Purpose': 'prefetch' } },
      { method: 'GET', path: '/promo', headers: { Purpose: 'prefetch' } },
      { method: 'GET', path: '/promo', headers: { Accept: 'text/html' } },
    ];
    for (const served of [fast, slow]) {
      for (const request of requests) await rawRequest(served.origin, request);
      expect(served.clicks).toEqual([
        ['promo', NOW],
        ['promo', NOW],
        ['promo', NOW],
      ]);
    }
    expect(fast.handlerCalls()).toBe(0); // the fast path answered (and counted) every one itself
    expect(slow.handlerCalls()).toBe(requests.length);
  });
});
