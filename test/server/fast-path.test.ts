import type { Server } from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, type RequestEnv } from '../../core/handler.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createHttpServer } from '../../server/http/http-server.js';
import { createRequestLog } from '../../server/http/request-log.js';
import { withLinkCache } from '../../server/stores/cache/link-cache.js';
import { type Answer, comparableRequest, jsonLinesInto, listenOnLoopback } from '../raw-http.js';

// The same handler, store and clock behind two servers: one sends short URLs down the Node fast
// path, the other sends everything through the core handler. Whatever the request, the two must
// answer alike; the fast one must not have called the handler for a short URL.
const NOW = Date.UTC(2026, 0, 31, 12, 0, 0, 250);
const DAY = 86_400_000;
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

interface Served {
  origin: string;
  server: Server;
  handlerCalls: () => number;
  logs: Array<Record<string, unknown>>;
}

async function serve(store: LinkStore, fastPath: boolean, redirectCacheSeconds?: number): Promise<Served> {
  const logs: Array<Record<string, unknown>> = [];
  const sink = jsonLinesInto(logs);
  // A zone other than UTC: both paths must write an expiry's date in the server's zone.
  const timeZone = 'Asia/Seoul';
  const handler = createHandler({ store, baseUrl: 'https://sho.rt', now: () => NOW, redirectCacheSeconds, timeZone });
  let calls = 0;
  const counted = (request: Request, env?: RequestEnv) => {
    calls++;
    return handler(request, env);
  };
  const server = createHttpServer(counted, {
    log: createRequestLog(pino({ level: 'info' }, sink)),
    ...(fastPath && { shortUrls: { store, now: () => NOW, redirectCacheSeconds, timeZone } }),
  });
  return { origin: await listenOnLoopback(server), server, handlerCalls: () => calls, logs };
}

const send = (origin: string, method: string, path: string, headers: Record<string, string> = {}) =>
  comparableRequest(origin, { method, path, headers });

const withoutRequestId = ({ headers, ...rest }: Answer) => {
  const { 'x-request-id': _, ...others } = headers;
  return { ...rest, headers: others };
};

let store: LinkStore;
let fast: Served;
let slow: Served;

beforeAll(async () => {
  store = createMemoryLinkStore();
  const add = (code: string, originalUrl: string, expiresAt: number, disabled?: boolean) =>
    store.create(
      { code, codeKey: code.toLowerCase(), originalUrl, createdAt: NOW - DAY, expiresAt, disabled },
      NOW - DAY,
    );
  await add('Promo', 'https://example.com/landing?a=1', NOW + DAY);
  await add('한글', 'https://bücher.example/straße/한글?q=ä#frag', NOW + 7 * DAY + 999);
  await add('gone', 'https://example.com/old', NOW - 1);
  await add('last-ms', 'https://example.com/edge', NOW + 1);
  await add('api2', 'https://example.com/api2', NOW + DAY);
  await add('off', 'https://example.com/off', NOW + DAY, true);
  fast = await serve(store, true);
  slow = await serve(store, false);
});
afterAll(() => {
  for (const { server } of [fast, slow]) server.close();
});

const hangul = encodeURIComponent('한글');
const SHORT_URLS = [
  '/Promo',
  '/promo/',
  '/PROMO?utm_source=mail',
  `/${hangul}`,
  `/${hangul}/`,
  `/${hangul.toLowerCase()}`,
  `/${encodeURIComponent('한글'.normalize('NFD'))}`,
  '/gone',
  '/gone/',
  '/off',
  '/last-ms',
  '/api2',
  '/nothing',
  `/${encodeURIComponent('없음')}`,
  `/${'a'.repeat(65)}`,
  `/${'%EA%B0%80'.repeat(70)}`,
  '/%C3%28', // malformed UTF-8: no such code
  '/%ED%A0%80',
];
const ACCEPTS: Array<Record<string, string>> = [
  {},
  { Accept: 'application/json' },
  { Accept: BROWSER },
  { Accept: BROWSER, 'Accept-Language': 'ko-KR,ko;q=0.9,en;q=0.8' },
  { Accept: '*/*' },
  { Accept: 'text/html;q=0, application/json' },
];

describe('the Node fast path for short URLs', () => {
  it.each(
    SHORT_URLS.flatMap((path) => ['GET', 'HEAD'].flatMap((method) => ACCEPTS.map((accept) => [method, path, accept]))),
  )('answers %s %s (%o) exactly as the core handler does, without calling it', async (method, path, accept) => {
    const before = fast.handlerCalls();
    const [viaFast, viaHandler] = await Promise.all([
      send(fast.origin, method as string, path as string, accept as Record<string, string>),
      send(slow.origin, method as string, path as string, accept as Record<string, string>),
    ]);
    expect(withoutRequestId(viaFast)).toEqual(withoutRequestId(viaHandler));
    // A 302 names no request id the client did not send; every other answer names a fresh one.
    for (const answer of [viaFast, viaHandler]) {
      if (answer.status === 302) expect(answer.headers['x-request-id']).toBeUndefined();
      else expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(fast.handlerCalls()).toBe(before);
  });

  it.each(['/%68ealth', '/HEALTH', '/Health/', '/%61pi', '/API', '/admin', '/%41dmin/', '/api.php'])(
    'leaves %s, a reserved word however it is spelled, to the core handler with the same answer',
    async (path) => {
      for (const method of ['GET', 'HEAD']) {
        const [viaFast, viaHandler] = await Promise.all([
          send(fast.origin, method, path),
          send(slow.origin, method, path),
        ]);
        expect(withoutRequestId(viaFast)).toEqual(withoutRequestId(viaHandler));
      }
    },
  );

  it('sends what the rules say: 302 kept a minute at most and never past the expiry, 410 and 404 as page or envelope', async () => {
    const redirect = await send(fast.origin, 'GET', `/${hangul}`);
    expect(redirect).toMatchObject({
      status: 302,
      headers: {
        location: 'https://xn--bcher-kva.example/stra%C3%9Fe/%ED%95%9C%EA%B8%80?q=%C3%A4#frag',
        'cache-control': 'private, max-age=60',
      },
      body: '',
    });
    expect((await send(fast.origin, 'GET', '/last-ms')).headers['cache-control']).toBe('private, max-age=0');
    const expired = await send(fast.origin, 'GET', '/gone');
    expect(expired.status).toBe(410);
    expect(JSON.parse(expired.body)).toEqual({
      status: 'error',
      message: `This short link expired on ${new Date(NOW - 1).toISOString()}.`,
    });
    const page = await send(fast.origin, 'GET', '/nothing', { Accept: BROWSER });
    expect(page.status).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(page.body).toMatch(/^<!doctype html>/);
    const head = await send(fast.origin, 'HEAD', '/nothing', { Accept: BROWSER });
    expect(head).toMatchObject({ status: 404, body: '' });
    // q=0 means "not acceptable": this client gets JSON, not the page.
    const refusesHtml = await send(fast.origin, 'GET', '/nothing', { Accept: 'text/html;q=0, application/json' });
    expect(refusesHtml.headers['content-type']).toBe('application/json');
    expect(JSON.parse(refusesHtml.body)).toMatchObject({ status: 'error' });
  });

  it('echoes a well-formed X-Request-Id on a 302 and replaces a malformed one, as the core path does', async () => {
    for (const { origin } of [fast, slow]) {
      const echoed = await send(origin, 'GET', '/promo', { 'X-Request-Id': 'trace-42' });
      expect(echoed.status).toBe(302);
      expect(echoed.headers['x-request-id']).toBe('trace-42');
      const replaced = await send(origin, 'GET', '/promo', { 'X-Request-Id': 'bad id!' });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('sends a 302 no X-Request-Id the client did not send, while its log line still has an id', async () => {
    for (const served of [fast, slow]) {
      const count = served.logs.length;
      const answer = await send(served.origin, 'GET', '/promo');
      expect(answer.status).toBe(302);
      expect(answer.headers['x-request-id']).toBeUndefined();
      await new Promise((resolve) => setImmediate(resolve));
      expect(served.logs.slice(count)).toEqual([
        expect.objectContaining({ reqId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 302, path: '/promo' }),
      ]);
    }
  });

  it('writes one log line per request, the same fields as the core path', async () => {
    const count = fast.logs.length;
    await send(fast.origin, 'HEAD', `/${hangul}/?x=1`, { 'X-Request-Id': 'log-me' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(fast.logs.slice(count)).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        pid: process.pid,
        hostname: expect.any(String),
        reqId: 'log-me',
        method: 'HEAD',
        path: `/${hangul}/`,
        status: 302,
        durationMs: expect.any(Number),
        msg: 'request',
      },
    ]);
  });

  it.each([
    ['/', {}],
    ['/health', {}],
    ['/api', { Accept: BROWSER }],
    ['/api/', { Accept: BROWSER }],
    ['/API', { Accept: BROWSER }],
    ['/api.php', {}],
    ['/api/v1/openapi.json', {}],
    ['/%2e', {}],
    ['/%2E%2E/', {}],
    ['/a.b', { Accept: BROWSER }],
    ['/%ZZ', {}],
    ['/abc%', {}],
    ['/promo/extra', {}],
    ['//promo', {}],
    ['/promo//', {}],
    ['/promo', { Host: 'SHO.RT' }],
    ['/promo', { Host: 'sho.rt:80' }],
  ])('leaves %s (%o) to the core handler, with the same answer', async (path, headers) => {
    const before = fast.handlerCalls();
    const [viaFast, viaHandler] = await Promise.all([
      send(fast.origin, 'GET', path, headers),
      send(slow.origin, 'GET', path, headers),
    ]);
    expect(withoutRequestId(viaFast)).toEqual(withoutRequestId(viaHandler));
    expect(fast.handlerCalls()).toBe(before + 1);
  });

  it('refuses a Host header it cannot read with 400, as the core adapter does', async () => {
    const [viaFast, viaHandler] = await Promise.all([
      send(fast.origin, 'GET', '/promo', { Host: 'bad host' }),
      send(slow.origin, 'GET', '/promo', { Host: 'bad host' }),
    ]);
    expect(viaFast.status).toBe(400);
    expect(withoutRequestId(viaFast)).toEqual(withoutRequestId(viaHandler));
  });

  it('leaves other methods on a short URL to the core handler (405)', async () => {
    const before = fast.handlerCalls();
    const answer = await send(fast.origin, 'DELETE', '/promo');
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD');
    expect(fast.handlerCalls()).toBe(before + 1);
  });
});

describe('the fast path with the redirect cache setting', () => {
  it.each([
    [0, 'no-store', 'no-store'],
    [3600, 'private, max-age=3600', 'private, max-age=0'],
  ])('sends the Cache-Control the handler sends for redirectCacheSeconds %i', async (seconds, day, lastMs) => {
    const [quick, plain] = await Promise.all([serve(store, true, seconds), serve(store, false, seconds)]);
    try {
      for (const [path, expected] of [
        ['/Promo', day],
        ['/last-ms', lastMs],
      ]) {
        const [viaFast, viaHandler] = await Promise.all([
          send(quick.origin, 'GET', path as string),
          send(plain.origin, 'GET', path as string),
        ]);
        expect(viaFast.headers['cache-control']).toBe(expected);
        expect(withoutRequestId(viaFast)).toEqual(withoutRequestId(viaHandler));
      }
      expect(quick.handlerCalls()).toBe(0);
    } finally {
      quick.server.close();
      plain.server.close();
    }
  });
});

describe('the fast path in front of the link cache', () => {
  it.each(['/Promo', `/${hangul}/`, '/gone', '/nothing', '/last-ms'])(
    'answers %s from the cache (twice) exactly as the core handler does',
    async (path) => {
      const cached = await serve(withLinkCache(store, { maxEntries: 100, maxAgeMs: 60_000, now: () => NOW }), true);
      try {
        for (let i = 0; i < 2; i++) {
          for (const accept of ACCEPTS) {
            const [viaCache, viaHandler] = await Promise.all([
              send(cached.origin, 'GET', path, accept),
              send(slow.origin, 'GET', path, accept),
            ]);
            expect(withoutRequestId(viaCache)).toEqual(withoutRequestId(viaHandler));
          }
        }
        expect(cached.handlerCalls()).toBe(0);
      } finally {
        cached.server.close();
      }
    },
  );
});

describe('the fast path when the store fails', () => {
  it('lets the core handler answer it: 500, the generic envelope, one log line', async () => {
    const broken: LinkStore = {
      ...createMemoryLinkStore(),
      findByCodeKey: () => Promise.reject(new Error('disk on fire')),
    };
    const failing = await serve(broken, true);
    try {
      const answer = await send(failing.origin, 'GET', '/promo', { 'X-Request-Id': 'fire-1' });
      expect(answer.status).toBe(500);
      expect(JSON.parse(answer.body)).toEqual({
        status: 'error',
        message: expect.stringMatching(/^Internal server error/),
      });
      expect(answer.body).not.toMatch(/disk on fire/);
      expect(answer.headers['x-request-id']).toBe('fire-1');
      await new Promise((resolve) => setImmediate(resolve));
      expect(failing.logs.filter((entry) => entry.msg === 'request')).toEqual([
        expect.objectContaining({ reqId: 'fire-1', status: 500, path: '/promo' }),
      ]);
    } finally {
      failing.server.close();
    }
  });
});
