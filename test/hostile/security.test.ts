import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { carriesApiKey } from '../../core/http/middleware/api-key.js';

/** Whether a request's headers carry `key` the way the server reads them (X-API-Key or Bearer). */
const hasApiKey = (request: Request, key: string) =>
  carriesApiKey(request.headers.get('x-api-key'), request.headers.get('authorization'), key);

import { ERROR_PAGE_STYLE } from '../../core/http/error-page.js';
import { CONTENT_SECURITY_POLICY, ERROR_PAGE_POLICY, ERROR_PAGE_STYLE_HASH } from '../../core/http/security-headers.js';
import { type RunningServer, runFailingServer } from '../../scripts/server-process.mjs';
import { createClientAddressOf } from '../../server/http/client-address.js';
import { rawRequest } from '../raw-http.js';
import { useServerProcesses } from '../server/use-server-processes.js';

const servers = useServerProcesses('security');
const { freshDb } = servers;
const start = (env: Record<string, string> = {}) => servers.start({ DATABASE_URL: `sqlite:${freshDb()}`, ...env });

const post = (server: RunningServer, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.origin}/api/v1/shorten`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

function expectSecurityHeaders(
  response: { status: number; headers: Headers } | { status: number; headers: Record<string, string> },
  what: string,
) {
  const get = (name: string) =>
    response.headers instanceof Headers ? response.headers.get(name) : (response.headers[name] ?? null);
  expect(get('referrer-policy'), what).toBe('no-referrer');
  // A redirect has no body for nosniff or a policy to protect: it carries the referrer policy alone.
  const redirect = response.status >= 300 && response.status < 400;
  expect(get('x-content-type-options'), what).toBe(redirect ? null : 'nosniff');
  // The error page's policy allows its stylesheet and icon; anything else (JSON) loads nothing.
  const page = get('content-type')?.startsWith('text/html') === true;
  expect(get('content-security-policy'), what).toBe(
    redirect ? null : page ? ERROR_PAGE_POLICY : CONTENT_SECURITY_POLICY,
  );
}

describe('security headers on every kind of response, over real HTTP', () => {
  it('are on the redirect fast path, the core handler, and Node-level refusals alike', async () => {
    const key = 'k'.repeat(24);
    const dbPath = freshDb();
    const server = await start({ API_KEY: key, CACHE_ENTRIES: '0', DATABASE_URL: `sqlite:${dbPath}` });
    const path = server.origin;
    const withKey = { 'X-API-Key': key };
    const made = await post(server, { original_url: 'https://example.com/s', custom_code: 'sec' }, withKey);
    const soon = await post(server, { original_url: 'https://example.com/t', custom_code: 'gone' }, withKey);
    const db = new Database(dbPath);
    db.prepare("UPDATE links SET expires_at = 1 WHERE code_key = 'gone'").run();
    db.close();
    const preflightHeaders = { Origin: 'https://a.example', 'Access-Control-Request-Method': 'POST' };
    const answers: Array<[string, Response]> = [
      ['201', made],
      ['201 again', soon],
      ['302 (fast path)', await fetch(`${path}/sec`, { redirect: 'manual' })],
      ['302 (HEAD)', await fetch(`${path}/sec/`, { method: 'HEAD', redirect: 'manual' })],
      ['404 JSON', await fetch(`${path}/missing`)],
      ['404 HTML', await fetch(`${path}/missing`, { headers: { Accept: 'text/html' } })],
      ['410 JSON', await fetch(`${path}/gone`)],
      ['410 HTML', await fetch(`${path}/gone`, { headers: { Accept: 'text/html' } })],
      ['404 (core handler)', await fetch(`${path}/a/b`)],
      ['405', await fetch(`${path}/sec`, { method: 'DELETE' })],
      ['401', await post(server, { original_url: 'https://example.com' })],
      ['400', await post(server, { original_url: 'javascript:x' }, withKey)],
      ['409', await post(server, { original_url: 'https://example.com', custom_code: 'SEC' }, withKey)],
      ['413', await fetch(`${path}/api.php`, { method: 'POST', headers: withKey, body: 'x'.repeat(17_000) })],
      ['200 description', await fetch(`${path}/api.php`)],
      ['200 openapi', await fetch(`${path}/api/v1/openapi.json`)],
      ['204 preflight', await fetch(`${path}/api/v1/shorten`, { method: 'OPTIONS', headers: preflightHeaders })],
      ['200 health', await fetch(`${path}/health`)],
      ['404 api', await fetch(`${path}/api/nothing`)],
    ];
    for (const [what, response] of answers) expect(String(response.status), what).toBe(what.split(' ')[0]);
    for (const [what, response] of answers) expectSecurityHeaders(response, what);
    const port = Number(new URL(path).port);
    const oversized = await rawRequest(port, { method: 'GET', path: '/sec', headers: { 'X-Big': 'a'.repeat(20_000) } });
    expect(oversized.status).toBe(431);
    expectSecurityHeaders(oversized, '431');
    const garbage = await rawRequest(port, { method: 'GET', path: '/sec HTTP/1.1\r\nBad Header' });
    expect(garbage.status).toBe(400);
    expectSecurityHeaders(garbage, '400 (not HTTP)');
    expect(JSON.parse(garbage.body)).toEqual({ status: 'error', message: 'The request is not valid HTTP.' });
  });

  it('allow exactly the error page inline stylesheet, and nothing else', async () => {
    const hash = `sha256-${createHash('sha256').update(ERROR_PAGE_STYLE).digest('base64')}`;
    expect(ERROR_PAGE_STYLE_HASH).toBe(hash);
    expect(ERROR_PAGE_POLICY).toBe(
      `default-src 'none'; style-src '${hash}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(CONTENT_SECURITY_POLICY).toBe("default-src 'none'; frame-ancestors 'none'");
    const server = await start();
    const page = await (await fetch(`${server.origin}/missing`, { headers: { Accept: 'text/html' } })).text();
    expect(page).toContain(`<style>${ERROR_PAGE_STYLE}</style>`);
    expect(page).not.toMatch(/<script|<img|<iframe|\son\w+=|style=/i);
    // The one file the page names is its icon, on its own origin.
    expect([...page.matchAll(/<link[^>]*>/gi)].map((link) => link[0])).toEqual([
      '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    ]);
  });
});

describe('API key mode', () => {
  const key = 'correct horse battery staple';

  it.each([
    ['no key', {}],
    ['a wrong key of the same length', { 'X-API-Key': 'correct horse battery stapel' }],
    ['a prefix of the key', { 'X-API-Key': 'correct horse' }],
    ['the key and more', { 'X-API-Key': `${key}!` }],
    ['an empty key', { 'X-API-Key': '' }],
    ['Basic authentication', { Authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` }],
    ['Bearer with a wrong key', { Authorization: 'Bearer nope' }],
    ['the bare key in Authorization, without Bearer', { Authorization: key }],
    ['the key after another scheme', { Authorization: `Token ${key}` }],
    ['Bearer glued to the key', { Authorization: `Bearer${key}` }],
    ['the key in another header', { 'X-Api-Token': key }],
  ])('refuses %s', (_name, headers) => {
    const request = new Request('https://sho.rt/api/v1/shorten', { method: 'POST', headers });
    expect(hasApiKey(request, key)).toBe(false);
  });

  it.each([
    ['X-API-Key', { 'X-API-Key': key }],
    ['Authorization: Bearer', { Authorization: `Bearer ${key}` }],
    ['bearer in lower case', { Authorization: `bearer ${key}` }],
  ])('accepts the key as %s', (_name, headers) => {
    expect(hasApiKey(new Request('https://sho.rt/', { headers }), key)).toBe(true);
  });

  it('compares every character whatever the guess: no early exit on the first difference', () => {
    // Counts the characters of the guess that are read: the same for a guess that is wrong at
    // its first character as for one wrong only at its last.
    const reads = (guess: string) => {
      let count = 0;
      const spy = {
        length: guess.length,
        charCodeAt(i: number) {
          count += 1;
          return guess.charCodeAt(i);
        },
        replace: () => spy,
      };
      const request = { headers: { get: (name: string) => (name === 'x-api-key' ? spy : null) } } as unknown as Request;
      hasApiKey(request, key);
      return count;
    };
    expect(reads(`X${key.slice(1)}`)).toBe(key.length);
    expect(reads(`${key.slice(0, -1)}X`)).toBe(key.length);
    expect(reads('short')).toBe(key.length);
  });

  it('answers 401 with the envelope over HTTP', async () => {
    const server = await start({ API_KEY: key });
    const refused = await post(server, { original_url: 'https://example.com' }, { 'X-API-Key': 'wrong' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ status: 'error', message: expect.stringMatching(/API key/) });
  });

  it('refuses the bare key in Authorization (no Bearer) on both endpoints, over HTTP', async () => {
    const server = await start({ API_KEY: key });
    const body = { original_url: 'https://example.com/bare' };
    for (const path of ['/api/v1/shorten', '/api.php']) {
      const bare = await fetch(`${server.origin}${path}`, {
        method: 'POST',
        headers: { Authorization: key },
        body: JSON.stringify(body),
      });
      expect(bare.status, path).toBe(401);
      const bearer = await fetch(`${server.origin}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });
      expect(bearer.status, path).toBe(path === '/api.php' ? 200 : 201);
    }
  });
});

describe('a lone surrogate escape nested thousands deep, over real HTTP', () => {
  const key = 'd'.repeat(24);
  const deep = `${'['.repeat(4000)}"\\ud83d"${']'.repeat(4000)}`;

  it.each([
    ['an open server', {}, {}],
    ['a server with API_KEY, sent with the key', { API_KEY: key }, { 'X-API-Key': key }],
  ])('is a 400 naming the rule on %s, never a 500 or an error log line', async (_, env, headers) => {
    const server = await start(env);
    for (const path of ['/api/v1/shorten', '/api.php']) {
      for (const chunked of [false, true]) {
        // A declared length takes the server's create fast path; a chunked body the core handler.
        const answer = await rawRequest(server.port, {
          method: 'POST',
          path,
          headers: { 'Content-Type': 'application/json', ...headers },
          body: deep,
          chunked,
        });
        expect(answer.status, `${path} chunked=${chunked}`).toBe(400);
        expect(JSON.parse(answer.body)).toEqual({
          status: 'error',
          message: expect.stringMatching(
            /^\[0\]\[0\]\[0\].*… has a lone UTF-16 surrogate .*; send valid Unicode text\.$/,
          ),
        });
      }
    }
    await server.waitForLogs((entry) => entry.msg === 'request', 4);
    expect(server.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});

describe('safer defaults for a public server, over real HTTP', () => {
  const warnings = (server: RunningServer) =>
    server.logs.filter((line) => line.level === 40 && /API_KEY/.test(String(line.msg)));

  it('warns at start, and refuses private targets, when it listens beyond loopback with no key or limit', async () => {
    const server = await start({ HOST: '0.0.0.0' });
    const [warning, ...more] = warnings(server);
    expect(more).toHaveLength(0);
    expect(String(warning?.msg)).toMatch(/no API_KEY and no RATE_LIMIT_PER_MINUTE/);
    for (const target of ['http://169.254.169.254/latest/meta-data/', 'http://192.168.1.1/', 'http://[fd00::1]/']) {
      const refused = await post(server, { original_url: target });
      expect(refused.status, target).toBe(400);
      expect((await refused.json()).message).toMatch(/must not point at a private, loopback or link-local address/);
    }
    expect((await post(server, { original_url: 'https://example.com/public' })).status).toBe(201);
  });

  it('stays quiet with an API key or a rate limit; BLOCK_PRIVATE_TARGETS=false lets private targets in', async () => {
    const keyed = await start({ HOST: '0.0.0.0', API_KEY: 'correct horse battery staple' });
    const limited = await start({ HOST: '0.0.0.0', RATE_LIMIT_PER_MINUTE: '600', BLOCK_PRIVATE_TARGETS: 'false' });
    const local = await start({}); // loopback: a developer's machine, private targets allowed
    for (const server of [keyed, limited, local]) expect(warnings(server)).toHaveLength(0);
    expect((await post(limited, { original_url: 'http://192.168.1.1/' })).status).toBe(201);
    expect((await post(local, { original_url: 'http://localhost:3000/' })).status).toBe(201);
  });
});

describe('per-client rate limit', () => {
  it('is off by default', async () => {
    const server = await start();
    const statuses = await Promise.all(Array.from({ length: 40 }, () => fetch(`${server.origin}/missing`)));
    expect(statuses.every((response) => response.status === 404)).toBe(true);
  });

  it('answers 429 with Retry-After and the envelope past the limit, on every path but /health and preflights', async () => {
    const server = await start({ RATE_LIMIT_PER_MINUTE: '6' });
    const made = await post(server, { original_url: 'https://example.com/rl', custom_code: 'rl' });
    expect(made.status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await fetch(`${server.origin}/rl`, { redirect: 'manual' })).status).toBe(302);
    const limited = [
      await fetch(`${server.origin}/rl`, { redirect: 'manual' }), // the redirect fast path
      // the core handler, from a page's script (which sends Origin)
      await post(server, { original_url: 'https://example.com/rl2' }, { Origin: 'https://a.example' }),
      await fetch(`${server.origin}/api.php`),
    ];
    for (const [i, response] of limited.entries()) {
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      // CORS on the API paths for a request with Origin, as every API answer; a short URL's answer has none.
      expect(response.headers.get('access-control-allow-origin')).toBe(i === 1 ? '*' : null);
      expectSecurityHeaders(response, '429');
      expect(await response.json()).toEqual({ status: 'error', message: expect.stringMatching(/^Too many requests/) });
    }
    expect((await fetch(`${server.origin}/health`)).status).toBe(200);
    const preflight = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    // X-Forwarded-For is not believed from a client that is not a trusted proxy.
    const spoofed = await fetch(`${server.origin}/rl`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    expect(spoofed.status).toBe(429);
    const lines = await server.waitForLogs((entry) => entry.status === 429, 4);
    expect(lines.length).toBeGreaterThanOrEqual(4);
  });

  it('takes the client from X-Forwarded-For behind a trusted proxy, reading from the right', async () => {
    const server = await start({ RATE_LIMIT_PER_MINUTE: '2', TRUSTED_PROXIES: '127.0.0.1, ::1' });
    const as = (forwardedFor: string) =>
      fetch(`${server.origin}/missing`, { headers: { 'X-Forwarded-For': forwardedFor } });
    expect((await as('203.0.113.1')).status).toBe(404);
    expect((await as('203.0.113.1')).status).toBe(404);
    expect((await as('203.0.113.1')).status).toBe(429);
    // A made-up address on the left of the chain does not make a new client.
    expect((await as('198.51.100.7, 203.0.113.1')).status).toBe(429);
    expect((await as('203.0.113.2')).status).toBe(404);
  });

  it('refuses a bad TRUSTED_PROXIES or RATE_LIMIT_PER_MINUTE, and timeouts in the wrong order', async () => {
    for (const [env, message] of [
      [{ TRUSTED_PROXIES: '10.0.0.1, nonsense' }, /TRUSTED_PROXIES: 'nonsense' is not an IP address or CIDR range/],
      [{ TRUSTED_PROXIES: '10.0.0.0/33' }, /TRUSTED_PROXIES/],
      [{ RATE_LIMIT_PER_MINUTE: '-1' }, /RATE_LIMIT_PER_MINUTE/],
      [{ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' }, /HEADERS_TIMEOUT_MS: must not be longer than/],
    ] as const) {
      const { code, stderr } = await runFailingServer({ DATABASE_URL: `sqlite:${freshDb()}`, ...env });
      expect(code).toBe(1);
      expect(stderr).toMatch(message);
    }
  });
});

describe('client address (units)', () => {
  it('believes X-Forwarded-For only from trusted proxies, and only up to the first untrusted hop', () => {
    const clientOf = createClientAddressOf(['10.0.0.0/8', '::1']);
    expect(clientOf('203.0.113.5', '198.51.100.1')).toBe('203.0.113.5'); // not from a proxy
    expect(clientOf('10.1.2.3', '198.51.100.1')).toBe('198.51.100.1');
    expect(clientOf('::ffff:10.1.2.3', '198.51.100.1')).toBe('198.51.100.1');
    expect(clientOf('10.1.2.3', 'spoofed, 198.51.100.1, 10.9.9.9')).toBe('198.51.100.1');
    expect(clientOf('10.1.2.3', ['1.1.1.1', '198.51.100.2'])).toBe('198.51.100.2');
    expect(clientOf('::1', '2001:db8::1')).toBe('2001:db8::1');
    expect(clientOf('10.1.2.3', 'garbage')).toBe('10.1.2.3');
    expect(clientOf('10.1.2.3', undefined)).toBe('10.1.2.3');
    expect(createClientAddressOf([])('10.1.2.3', '198.51.100.1')).toBe('10.1.2.3');
  });
});
