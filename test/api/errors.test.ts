import { describe, expect, it, vi } from 'vitest';
import type { LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { json, makeHandler, methodsOf } from './make-handler.js';

const URL_A = 'https://example.com/a';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const API_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST'];
const LIMIT = 16 * 1024;

/** A JSON shorten request of exactly `size` UTF-8 bytes (padded with an unknown field). */
function bodyOfSize(size: number): string {
  const empty = JSON.stringify({ original_url: URL_A, pad: '' });
  const body = JSON.stringify({ original_url: URL_A, pad: 'x'.repeat(size - empty.length) });
  expect(new TextEncoder().encode(body).byteLength).toBe(size);
  return body;
}

/** `text` as a stream of 1 KiB chunks, so the request has no Content-Length. */
function streamOf(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 1024));
      offset += 1024;
    },
  });
}

function streamedPost(path: string, text: string): Request {
  return new Request(`https://sho.rt${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: streamOf(text),
    duplex: 'half',
  } as RequestInit);
}

describe('405 on the API paths', () => {
  it.each([
    ['/api.php', 'PUT'],
    ['/api.php', 'DELETE'],
    ['/api.php', 'PATCH'],
    ['/api/v1/shorten', 'PUT'],
    ['/api/v1/shorten', 'DELETE'],
    ['/api/v1/shorten', 'PATCH'],
  ])('%s answers %s with 405, an Allow header and the error envelope', async (path, method) => {
    const response = await makeHandler().fetch(path, {
      method,
      headers: { Origin: 'https://app.example' },
      body: JSON.stringify({ original_url: URL_A }),
    });
    expect(response.status).toBe(405);
    expect(methodsOf(response.headers.get('allow'))).toEqual(API_METHODS);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await json(response)).toEqual({ status: 'error', message: expect.stringContaining(method) });
  });

  it.each([
    ['/api/v1/openapi.json', 'POST', ['GET', 'HEAD', 'OPTIONS']],
    ['/health', 'POST', ['GET', 'HEAD']],
    ['/health', 'DELETE', ['GET', 'HEAD']],
    // The site root describes the API on GET; other methods are refused like anywhere else.
    ['/', 'POST', ['GET', 'HEAD']],
    ['/', 'DELETE', ['GET', 'HEAD']],
  ])('%s answers %s with 405 and Allow %j', async (path, method, allow) => {
    const response = await makeHandler().fetch(path, { method });
    expect(response.status).toBe(405);
    expect(methodsOf(response.headers.get('allow'))).toEqual(allow);
    expect(await json(response)).toEqual({ status: 'error', message: expect.any(String) });
  });
});

describe('unknown /api/… paths', () => {
  it.each([
    ['GET', '/api'],
    ['GET', '/api/'],
    ['GET', '/api/v2/shorten'],
    ['GET', '/api/v1'],
    ['GET', '/api/v1/shorten/extra'],
    ['POST', '/api/v1/unknown'],
    ['DELETE', '/api/anything'],
  ])('%s %s answers 404 JSON, even to a browser', async (method, path) => {
    const app = makeHandler();
    for (const accept of [BROWSER_ACCEPT, 'application/json']) {
      const response = await app.fetch(path, { method, headers: { Accept: accept, Origin: 'https://app.example' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({ status: 'error', message: expect.any(String) });
    }
  });
});

describe('CORS', () => {
  it.each(['/api.php', '/api/v1/shorten', '/api/v1/openapi.json'])(
    'answers the OPTIONS preflight of %s with 204',
    async (path) => {
      const response = await makeHandler().fetch(path, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://app.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, x-api-key',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(methodsOf(response.headers.get('access-control-allow-methods'))).toEqual(
        expect.arrayContaining(['GET', 'POST']),
      );
      const allowedHeaders = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      expect(allowedHeaders).toContain('content-type');
      expect(allowedHeaders).toContain('x-api-key');
      expect(allowedHeaders).toContain('authorization');
      expect(await response.text()).toBe('');
    },
  );

  it('answers the preflight without an API key even in API-key mode', async () => {
    const response = await makeHandler({ apiKey: 'k-123456' }).fetch('/api/v1/shorten', {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('exposes Location to scripts on the v1 success', async () => {
    const response = await makeHandler().post(
      '/api/v1/shorten',
      { original_url: URL_A },
      { Origin: 'https://app.example' },
    );
    expect(response.status).toBe(201);
    expect((response.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('location');
  });

  const failingStore = (): LinkStore => ({
    ...createMemoryLinkStore(),
    create: () => Promise.reject(new Error('boom')),
  });
  type Headers = Record<string, string>;
  const cases: [string, (headers: Headers) => Promise<Response>, number][] = [
    ['legacy success', (h) => makeHandler().post('/api.php', { original_url: URL_A }, h), 200],
    ['v1 success', (h) => makeHandler().post('/api/v1/shorten', { original_url: URL_A }, h), 201],
    ['legacy description', (h) => makeHandler().fetch('/api.php', { headers: h }), 200],
    ['v1 description', (h) => makeHandler().fetch('/api/v1/shorten', { headers: h }), 200],
    ['OpenAPI document', (h) => makeHandler().fetch('/api/v1/openapi.json', { headers: h }), 200],
    ['400', (h) => makeHandler().post('/api.php', { original_url: 'javascript:alert(1)' }, h), 400],
    ['401', (h) => makeHandler({ apiKey: 'k-123456' }).post('/api/v1/shorten', { original_url: URL_A }, h), 401],
    ['404', (h) => makeHandler().fetch('/api/nothing', { headers: h }), 404],
    ['405', (h) => makeHandler().fetch('/api.php', { method: 'PUT', headers: h }), 405],
    [
      '409',
      async (h) => {
        const app = makeHandler();
        await app.post('/api.php', { original_url: URL_A, custom_code: 'taken' });
        return app.post('/api.php', { original_url: URL_A, custom_code: 'TAKEN' }, h);
      },
      409,
    ],
    ['413', (h) => makeHandler().post('/api/v1/shorten', bodyOfSize(LIMIT + 1), h), 413],
    ['500', (h) => makeHandler({ store: failingStore() }).post('/api.php', { original_url: URL_A }, h), 500],
  ];
  it.each(cases)(
    'sends Access-Control-Allow-Origin: * on the %s response to a request with Origin',
    async (_, send, status) => {
      const response = await send({ Origin: 'https://app.example' });
      expect(response.status).toBe(status);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toBe('Location, Retry-After');
    },
  );
  it.each(cases)(
    'sends no CORS headers on the %s response to a request without Origin, nosniff and the short policy still',
    async (_, send, status) => {
      const response = await send({});
      expect(response.status).toBe(status);
      const names = [...response.headers.keys()];
      expect(names.filter((name) => name.startsWith('access-control-'))).toEqual([]);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    },
  );

  it('says Vary: Origin on an API answer a cache may keep, with Origin or without', async () => {
    const app = makeHandler();
    for (const headers of [{}, { Origin: 'https://app.example' }] as Record<string, string>[]) {
      const description = await app.fetch('/api/v1/openapi.json', { headers });
      expect(description.headers.get('cache-control')).toBeNull();
      expect(description.headers.get('vary')).toContain('Origin');
    }
    // A create is never kept by a cache: nothing to vary.
    expect((await app.post('/api/v1/shorten', { original_url: URL_A })).headers.get('vary')).toBeNull();
  });
});

describe('413 for bodies over 16 KiB', () => {
  it.each(['/api.php', '/api/v1/shorten'])('%s refuses a body with Content-Length over 16384', async (path) => {
    const body = bodyOfSize(LIMIT + 1);
    const response = await makeHandler().fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(LIMIT + 1) },
      body,
    });
    expect(response.status).toBe(413);
    expect(await json(response)).toEqual({ status: 'error', message: expect.stringContaining('16384') });
  });

  it.each(['/api.php', '/api/v1/shorten'])(
    '%s refuses a streamed body over 16384 without Content-Length',
    async (path) => {
      const request = streamedPost(path, bodyOfSize(LIMIT + 1));
      expect(request.headers.get('content-length')).toBeNull();
      const response = await makeHandler().handler(request);
      expect(response.status).toBe(413);
      expect(await json(response)).toEqual({ status: 'error', message: expect.stringContaining('16384') });
    },
  );

  it('refuses a large body that is not even JSON with 413, not 400', async () => {
    const response = await makeHandler().handler(streamedPost('/api.php', 'x'.repeat(100 * 1024)));
    expect(response.status).toBe(413);
  });

  it('counts bytes, not characters', async () => {
    // 6000 Hangul syllables are 6000 characters but 18000 UTF-8 bytes.
    const body = JSON.stringify({ original_url: URL_A, pad: '가'.repeat(6000) });
    expect(body.length).toBeLessThan(LIMIT);
    expect((await makeHandler().handler(streamedPost('/api.php', body))).status).toBe(413);
  });

  it.each([
    ['with Content-Length', 'length'],
    ['streamed', 'stream'],
  ])('accepts a body of exactly 16384 bytes (%s)', async (_, mode) => {
    const app = makeHandler({ codes: ['abc2345'] });
    const body = bodyOfSize(LIMIT);
    const response =
      mode === 'length'
        ? await app.fetch('/api.php', { method: 'POST', headers: { 'Content-Length': String(LIMIT) }, body })
        : await app.handler(streamedPost('/api.php', body));
    expect(response.status).toBe(200);
    expect((await json(response)).data).toMatchObject({ code: 'abc2345', original_url: URL_A });
  });

  it('follows the maxBodyBytes option', async () => {
    const app = makeHandler({ maxBodyBytes: 100 });
    expect((await app.handler(streamedPost('/api/v1/shorten', bodyOfSize(100)))).status).toBe(201);
    const response = await app.handler(streamedPost('/api/v1/shorten', bodyOfSize(101)));
    expect(response.status).toBe(413);
    expect((await json(response)).message).toContain('100');
  });
});

describe('500 on unexpected failures', () => {
  const SECRET = 'disk on fire at /var/lib/linklet/secret.db';

  function brokenApp(broken: Partial<LinkStore>) {
    const onError = vi.fn();
    const store: LinkStore = { ...createMemoryLinkStore(), ...broken };
    return { app: makeHandler({ store, onError }), onError };
  }

  it.each(['/api.php', '/api/v1/shorten'])(
    '%s answers 500 with a generic message when the store rejects',
    async (path) => {
      const error = new Error(SECRET);
      const { app, onError } = brokenApp({ create: () => Promise.reject(error) });
      const request = new Request(`https://sho.rt${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req-42' },
        body: JSON.stringify({ original_url: URL_A, custom_code: 'promo' }),
      });

      const response = await app.handler(request);
      expect(response.status).toBe(500);
      const body = await json(response);
      expect(body).toEqual({ status: 'error', message: expect.any(String) });
      expect(body.message).not.toContain('disk');
      expect(body.message).not.toContain('secret');
      expect(body.message).not.toContain('Error');

      expect(onError).toHaveBeenCalledTimes(1);
      const [reported, report] = onError.mock.calls[0] ?? [];
      expect(reported).toBe(error);
      expect(report.level).toBe('error');
      const reportedRequest = report.request;
      expect(reportedRequest).toBeInstanceOf(Request);
      expect(reportedRequest.method).toBe('POST');
      expect(reportedRequest.url).toBe(`https://sho.rt${path}`);
      expect(reportedRequest.headers.get('x-request-id')).toBe('req-42');
    },
  );

  it('answers 500 when the store throws while resolving', async () => {
    const error = new Error(SECRET);
    const { app, onError } = brokenApp({ findByCodeKey: () => Promise.reject(error) });
    const response = await app.fetch('/promo', { headers: { Accept: 'application/json' } });
    expect(response.status).toBe(500);
    expect((await json(response)).message).not.toContain('disk');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(
      error,
      expect.objectContaining({ level: 'error', request: expect.any(Request) }),
    );
  });

  it('does not report client errors as failures', async () => {
    const { app, onError } = brokenApp({});
    await app.post('/api.php', { original_url: 'javascript:alert(1)' });
    await app.post('/api.php', { original_url: URL_A, custom_code: 'x' });
    await app.post('/api.php', { original_url: URL_A, custom_code: 'x' });
    await app.fetch('/api.php', { method: 'PUT' });
    await app.fetch('/nothing');
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('GET /health', () => {
  it('answers 200 {status: ok} when the store answers', async () => {
    const response = await makeHandler().fetch('/health');
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ status: 'ok' });
  });

  it('answers 503 with the error envelope when store.ping rejects', async () => {
    const onError = vi.fn();
    const store: LinkStore = {
      ...createMemoryLinkStore(),
      ping: () => Promise.reject(new Error('connection refused')),
    };
    const response = await makeHandler({ store, onError }).fetch('/health');
    expect(response.status).toBe(503);
    const body = await json(response);
    expect(body).toEqual({ status: 'error', message: expect.any(String) });
    expect(body.message).not.toContain('connection refused');
    // Like every 503: when to look again, and the outage is logged as a warning, with its cause.
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'unavailable' }),
      expect.objectContaining({ level: 'warn' }),
    );
  });
});

describe('API-key mode', () => {
  const KEY = 'k-3f9a7c1e';
  const app = () => makeHandler({ apiKey: KEY });

  it.each([
    ['no key', {}],
    ['a wrong X-API-Key', { 'X-API-Key': 'k-3f9a7c1f' }],
    ['a key that only starts right', { 'X-API-Key': `${KEY}x` }],
    ['a prefix of the key', { 'X-API-Key': KEY.slice(0, -1) }],
    ['an empty X-API-Key', { 'X-API-Key': '' }],
    ['a wrong bearer token', { Authorization: 'Bearer nope' }],
    ['the key without the Bearer scheme', { Authorization: `Basic ${KEY}` }],
  ])('answers 401 to a POST with %s', async (_, headers) => {
    for (const path of ['/api.php', '/api/v1/shorten']) {
      const response = await app().post(path, { original_url: URL_A }, headers);
      expect(response.status).toBe(401);
      expect(await json(response)).toEqual({ status: 'error', message: expect.any(String) });
    }
  });

  it.each([
    ['X-API-Key', { 'X-API-Key': KEY }],
    ['Authorization: Bearer', { Authorization: `Bearer ${KEY}` }],
  ])('accepts the right key in %s', async (_, headers) => {
    const handler = app();
    expect((await handler.post('/api.php', { original_url: URL_A }, headers)).status).toBe(200);
    expect((await handler.post('/api/v1/shorten', { original_url: URL_A }, headers)).status).toBe(201);
  });

  it('does not store anything for a request without the key', async () => {
    const handler = app();
    await handler.post('/api.php', { original_url: URL_A, custom_code: 'promo' });
    expect((await handler.fetch('/promo')).status).toBe(404);
  });

  it.each(['/api.php', '/api/v1/shorten', '/api/v1/openapi.json', '/health'])(
    'needs no key for GET %s',
    async (path) => {
      expect((await app().fetch(path)).status).toBe(200);
    },
  );

  it('needs no key to follow a short URL', async () => {
    const handler = app();
    await handler.post('/api.php', { original_url: URL_A, custom_code: 'promo' }, { 'X-API-Key': KEY });
    expect((await handler.fetch('/promo')).status).toBe(302);
  });
});

describe('lone UTF-16 surrogates in the body', () => {
  // Written as JSON text: `\ud800` is an escape JSON allows, though it names no character.
  it.each([
    ['original_url', '{"original_url":"https://example.com/\\ud800x"}', 'original_url'],
    ['custom_code', `{"original_url":"${URL_A}","custom_code":"ab\\udc00"}`, 'custom_code'],
    ['expire_duration', `{"original_url":"${URL_A}","expire_duration":"\\ud83d"}`, 'expire_duration'],
    ['an unknown field', `{"original_url":"${URL_A}","note":{"tags":["ok","\\uDFFF"]}}`, 'note.tags[1]'],
    ['a field name', `{"original_url":"${URL_A}","\\ud800":1}`, 'A field name'],
    ['a high half before a second high half', '{"original_url":"https://example.com/\\ud83d\\ud83d"}', 'original_url'],
    ['a low half first', '{"original_url":"https://example.com/\\ude00\\ud83d"}', 'original_url'],
  ])('are refused in %s with 400 on both endpoints', async (_, body, where) => {
    const app = makeHandler();
    for (const path of ['/api.php', '/api/v1/shorten']) {
      const response = await app.post(path, body);
      expect(response.status).toBe(400);
      const { message } = await json(response);
      expect(message).toContain(where);
      expect(message).toContain('lone UTF-16 surrogate');
    }
  });

  it('while an escaped pair (one emoji) is a character like any other', async () => {
    const response = await makeHandler().post(
      '/api/v1/shorten',
      '{"original_url":"https://example.com/\\ud83d\\ude00"}',
    );
    expect(response.status).toBe(201);
    expect((await json(response)).data.original_url).toBe('https://example.com/😀');
  });
});
