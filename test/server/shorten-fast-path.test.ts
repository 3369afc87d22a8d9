import type { Server } from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, type RequestEnv } from '../../core/handler.js';
import { LinkletError } from '../../core/http/errors.js';
import { settingsOf } from '../../core/settings.js';
import { createShortenAnswerer } from '../../core/shorten/shorten-answer.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createHttpServer } from '../../server/http/http-server.js';
import { createRequestLog } from '../../server/http/request-log.js';
import { type Answer, comparableRequest, jsonLinesInto, listenOnLoopback } from '../raw-http.js';

// Two servers, each with its own store but the same clock and the same sequence of generated
// codes: one takes shorten requests down the Node fast path, the other sends everything through
// the core handler. Fed the same requests in the same order, they must answer alike, and the
// fast one must not have called the handler for the requests it takes.
const NOW = Date.UTC(2026, 0, 31, 12, 0, 0, 250);

interface Served {
  origin: string;
  server: Server;
  handlerCalls: () => number;
  failures: () => Array<{ message: string; reqId: string | undefined }>;
  logs: Array<Record<string, unknown>>;
}

async function serve(fastPath: boolean, options: { store?: LinkStore; apiKey?: string } = {}): Promise<Served> {
  const logs: Array<Record<string, unknown>> = [];
  const log = createRequestLog(pino({ level: 'info' }, jsonLinesInto(logs)));
  let generated = 0;
  const linklet = {
    store: options.store ?? createMemoryLinkStore(),
    baseUrl: 'https://sho.rt',
    now: () => NOW,
    generateCode: (length: number) => `g${(generated++).toString(36).padStart(length - 1, '0')}`,
    apiKey: options.apiKey,
  };
  // Wired as server/main.ts wires it: failures reach the same request log on both paths.
  const handler = createHandler({
    ...linklet,
    onError: (error, { level, request, requestId }) =>
      log.failed(error, level, { id: requestId ?? '', method: request.method, path: new URL(request.url).pathname }),
  });
  let calls = 0;
  const counted = (request: Request, env?: RequestEnv) => {
    calls++;
    return handler(request, env);
  };
  const settings = settingsOf(linklet);
  const server = createHttpServer(counted, {
    log,
    ...(fastPath && {
      creates: { answer: createShortenAnswerer(settings), maxBodyBytes: settings.maxBodyBytes, apiKey: options.apiKey },
    }),
  });
  // What was logged as a failure (warn or error), as the error's string and the request's id.
  const failures = () =>
    logs
      .filter((line) => (line.level as number) >= 40)
      .map((line) => {
        const err = line.err as { type: string; message: string };
        return { message: `${err.type}: ${err.message}`, reqId: line.reqId as string | undefined };
      });
  return { origin: await listenOnLoopback(server), server, handlerCalls: () => calls, failures, logs };
}

/** A raw HTTP/1.1 POST; `chunked` sends the body without a Content-Length. The request id differs by design. */
async function post(
  origin: string,
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
  chunked = false,
): Promise<Answer> {
  const framing: Record<string, string> = chunked
    ? { 'Transfer-Encoding': 'chunked' }
    : { 'Content-Length': String(Buffer.byteLength(body)) };
  const answer = await comparableRequest(origin, { method: 'POST', path, headers: { ...framing, ...headers }, body });
  const { 'x-request-id': _, ...kept } = answer.headers;
  // A create without a key answers a random claim token: one of the same shape on both paths, never the same one.
  const answered = answer.body.replace(/"claim_token":"lc_[\w-]{43}"/, '"claim_token":"lc_(random)"');
  return { ...answer, headers: kept, body: answered };
}

const json = (value: unknown) => JSON.stringify(value);
// `{"original_url":"https://example.com/\xff"}`: JSON, but not UTF-8 (a decoder that repairs it would store U+FFFD).
const INVALID_UTF8_URL = Buffer.concat([
  Buffer.from('{"original_url":"https://example.com/'),
  Buffer.from([0xff]),
  Buffer.from('"}'),
]);
const BODIES: Array<[string, string | Buffer]> = [
  ['a generated code', json({ original_url: 'https://example.com/a' })],
  [
    'a custom code and expiry',
    json({ original_url: 'https://example.com/b', custom_code: 'Promo', expire_duration: '1 day' }),
  ],
  ['the same code, now taken', json({ original_url: 'https://example.com/c', custom_code: 'PROMO' })],
  ['a Hangul code and IDN URL', json({ original_url: 'https://bücher.example/한글', custom_code: '한글' })],
  ['a body with a BOM', `\uFEFF${json({ original_url: 'https://example.com/bom' })}`],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ['invalid UTF-8 inside a valid JSON string', INVALID_UTF8_URL],
  ['malformed JSON', '{"original_url":'],
  ['an empty body', ''],
  ['whitespace', '  \n'],
  ['a JSON array', '[1,2]'],
  ['null', 'null'],
  ['a wrong type', json({ original_url: 42 })],
  ['a prototype key', '{"__proto__":{"x":1},"original_url":"https://example.com/p"}'],
  ['a refused scheme', json({ original_url: 'javascript:alert(1)' })],
  ['the service itself', json({ original_url: 'https://SHO.RT./x' })],
  ['an unknown expiry', json({ original_url: 'https://example.com/e', expire_duration: '1MONTH' })],
  ['a reserved code', json({ original_url: 'https://example.com/r', custom_code: 'api' })],
  ['a refused code', json({ original_url: 'https://example.com/r', custom_code: 'a b' })],
];

let fast: Served;
let slow: Served;
beforeAll(async () => {
  fast = await serve(true);
  slow = await serve(false);
});
afterAll(() => {
  for (const { server } of [fast, slow]) server.close();
});

describe('the Node fast path for shorten requests', () => {
  it('answers every body on both endpoints exactly as the core handler does, without calling it', async () => {
    for (const origin of [{}, { Origin: 'https://page.example' }] as Record<string, string>[]) {
      for (const path of ['/api/v1/shorten', '/api.php', '/api/v1/shorten?source=ext']) {
        for (const [name, body] of BODIES) {
          const before = fast.handlerCalls();
          const viaFast = await post(fast.origin, path, body, origin);
          const viaHandler = await post(slow.origin, path, body, origin);
          expect(viaFast, `${path}: ${name}`).toEqual(viaHandler);
          expect(fast.handlerCalls(), `${path}: ${name}`).toBe(before);
        }
      }
    }
    const create = (origin: string, headers: Record<string, string> = {}) =>
      post(origin, '/api/v1/shorten', json({ original_url: 'https://example.com/z' }), headers);
    // CORS only for a request with Origin (a page's script); nosniff and the short policy on both.
    const made = await create(fast.origin);
    expect(made).toEqual(await create(slow.origin));
    expect(made.status).toBe(201);
    expect(JSON.parse(made.body).data.claim_token).toBe('lc_(random)');
    expect(made.headers).toMatchObject({
      location: expect.stringMatching(/^https:\/\/sho\.rt\/g\w+\/$/),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });
    expect(Object.keys(made.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    const fromPage = await create(fast.origin, { Origin: 'https://page.example' });
    expect(fromPage).toEqual(await create(slow.origin, { Origin: 'https://page.example' }));
    expect(fromPage.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'Location, Retry-After',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });
  });

  it('refuses a body that is not UTF-8 with a 400 that says so, on both endpoints and both paths', async () => {
    for (const path of ['/api/v1/shorten', '/api.php']) {
      for (const chunked of [false, true]) {
        const answer = await post(fast.origin, path, INVALID_UTF8_URL, {}, chunked);
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body)).toEqual({
          status: 'error',
          message: 'The request body is not valid UTF-8; send JSON text encoded as UTF-8.',
        });
      }
    }
  });

  it('leaves chunked, oversized and other requests to the core handler, with the same answers', async () => {
    const cases: Array<[string, string, Record<string, string>, boolean]> = [
      ['/api/v1/shorten', json({ original_url: 'https://example.com/chunked' }), {}, true],
      ['/api/v1/shorten', 'x'.repeat(16 * 1024 + 1), {}, false],
      ['/api/v1/shorten/', json({ original_url: 'https://example.com/slash' }), {}, false],
      ['/api/v1/shorten', json({ original_url: 'https://example.com/host' }), { Host: 'bad host' }, false],
    ];
    for (const [path, body, headers, chunked] of cases) {
      const before = fast.handlerCalls();
      const viaFast = await post(fast.origin, path, body, headers, chunked);
      const viaHandler = await post(slow.origin, path, body, headers, chunked);
      expect(viaFast).toEqual(viaHandler);
      // An unreadable Host is refused (400) by the adapter before the handler is called.
      expect(fast.handlerCalls()).toBe(headers.Host === undefined ? before + 1 : before);
      expect(viaFast.status).not.toBe(500);
    }
  });

  it('writes one log line per request, never the body', async () => {
    const count = fast.logs.length;
    await post(fast.origin, '/api/v1/shorten?x=1', json({ original_url: 'https://example.com/secret' }), {
      'X-Request-Id': 'create-1',
    });
    await new Promise((resolve) => setImmediate(resolve));
    const lines = fast.logs.slice(count);
    expect(lines).toEqual([
      expect.objectContaining({
        reqId: 'create-1',
        method: 'POST',
        path: '/api/v1/shorten',
        status: 201,
        msg: 'request',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/secret/);
  });
});

describe('the shorten fast path with an API key', () => {
  it('answers 401 without the key and creates with it, as the core handler does', async () => {
    const [keyFast, keySlow] = await Promise.all([serve(true, { apiKey: 'k3y' }), serve(false, { apiKey: 'k3y' })]);
    try {
      const body = json({ original_url: 'https://example.com/k' });
      const tries: Array<Record<string, string>> = [
        {},
        { 'X-API-Key': 'wrong' },
        { 'X-API-Key': 'k3y' },
        { Authorization: 'Bearer k3y' },
      ];
      for (const headers of tries) {
        const viaFast = await post(keyFast.origin, '/api/v1/shorten', body, headers);
        expect(viaFast).toEqual(await post(keySlow.origin, '/api/v1/shorten', body, headers));
      }
      // Only the key that is not the administrator's went to the handler, which looks up owner keys.
      expect(keyFast.handlerCalls()).toBe(1);
      expect((await post(keyFast.origin, '/api.php', body)).status).toBe(401);
    } finally {
      keyFast.server.close();
      keySlow.server.close();
    }
  });
});

describe('the shorten fast path when the store fails', () => {
  it.each([
    ['an unexpected error', new Error('disk on fire'), 500, /^Internal server error/],
    [
      'a store that cannot take writes',
      new LinkletError('unavailable', 'The database is busy; try again.'),
      503,
      /busy/,
    ],
  ])('answers %s as the core handler does and reports it', async (_name, error, status, message) => {
    const broken = (): LinkStore => ({ ...createMemoryLinkStore(), create: () => Promise.reject(error) });
    const [failFast, failSlow] = await Promise.all([
      serve(true, { store: broken() }),
      serve(false, { store: broken() }),
    ]);
    try {
      const body = json({ original_url: 'https://example.com/f' });
      const viaFast = await post(failFast.origin, '/api/v1/shorten', body, { 'X-Request-Id': 'fail-1' });
      expect(viaFast).toEqual(await post(failSlow.origin, '/api/v1/shorten', body, { 'X-Request-Id': 'fail-2' }));
      expect(viaFast.status).toBe(status);
      expect(JSON.parse(viaFast.body).message).toMatch(message);
      expect(viaFast.body).not.toMatch(/disk on fire/);
      expect(failFast.failures()).toEqual([{ message: String(error), reqId: 'fail-1' }]);
      expect(failSlow.failures()).toEqual([{ message: String(error), reqId: 'fail-2' }]);
      expect(failFast.handlerCalls()).toBe(0);
    } finally {
      failFast.server.close();
      failSlow.server.close();
    }
  });

  it('answers and logs "no free code" alike on both paths: an error, not a store outage', async () => {
    const full = (): LinkStore => ({
      ...createMemoryLinkStore(),
      create: async () => ({ created: false, holderExpiresAt: NOW + 1000 }),
    });
    const [fullFast, fullSlow] = await Promise.all([serve(true, { store: full() }), serve(false, { store: full() })]);
    try {
      const body = json({ original_url: 'https://example.com/n' });
      const viaFast = await post(fullFast.origin, '/api/v1/shorten', body, { 'X-Request-Id': 'full-1' });
      expect(viaFast).toEqual(await post(fullSlow.origin, '/api/v1/shorten', body, { 'X-Request-Id': 'full-1' }));
      expect(viaFast.status).toBe(500);
      expect(JSON.parse(viaFast.body).message).toMatch(/No free code/);
      for (const served of [fullFast, fullSlow]) {
        const failures = served.logs.filter((line) => (line.level as number) >= 40);
        expect(failures.map((line) => [line.level, line.msg, line.reqId])).toEqual([[50, 'request failed', 'full-1']]);
      }
    } finally {
      fullFast.server.close();
      fullSlow.server.close();
    }
  });
});
