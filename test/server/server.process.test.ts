import { request as httpRequest } from 'node:http';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runFailingServer, startServer } from '../../scripts/server-process.mjs';
import { useServerProcesses } from './use-server-processes.js';

const servers = useServerProcesses('server');
const { freshDb } = servers;
const start = servers.start;

const postJson = (origin: string, path: string, body: unknown) =>
  fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the server process over real HTTP on SQLite', () => {
  it('creates on both endpoints, redirects, and answers 404 for unknown codes', async () => {
    const server = await start({ DATABASE_URL: `sqlite:${freshDb()}` });

    const v1 = await postJson(server.origin, '/api/v1/shorten', {
      original_url: 'https://example.com/a',
      custom_code: '한글',
    });
    expect(v1.status).toBe(201);
    expect(v1.headers.get('location')).toBe(`${server.url}/%ED%95%9C%EA%B8%80/`);
    const v1Body = await v1.json();
    expect(v1Body).toMatchObject({ status: 'success', data: { short_url: `${server.url}/한글/`, code: '한글' } });
    expect(v1Body.data.expiration_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const legacy = await postJson(server.origin, '/api.php', {
      original_url: 'https://example.com/b',
      expire_duration: '24h',
    });
    expect(legacy.status).toBe(200);
    const legacyBody = await legacy.json();
    expect(legacyBody.data.short_url).toBe(`${server.url}/${legacyBody.data.code}`);
    expect(legacyBody.data.expiration_date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    for (const path of ['/%ED%95%9C%EA%B8%80', '/%ED%95%9C%EA%B8%80/', `/${legacyBody.data.code}`]) {
      const redirect = await fetch(`${server.origin}${path}`, { redirect: 'manual' });
      expect(redirect.status).toBe(302);
    }
    const followed = await fetch(`${server.origin}/%ED%95%9C%EA%B8%80`, { redirect: 'manual' });
    expect(followed.headers.get('location')).toBe('https://example.com/a');

    const missing = await fetch(`${server.origin}/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ status: 'error', message: expect.any(String) });
  });

  it('answers 410 once a link has expired, and then lets its code be taken again', async () => {
    const path = freshDb();
    const server = await start({ DATABASE_URL: `sqlite:${path}` });
    expect(
      (await postJson(server.origin, '/api/v1/shorten', { original_url: 'https://example.com', custom_code: 'Soon' }))
        .status,
    ).toBe(201);
    expect(
      (await postJson(server.origin, '/api.php', { original_url: 'https://example.com', custom_code: 'soon' })).status,
    ).toBe(409);

    // Another process writes the file, as a second instance or an operator would: expire the link.
    const db = new Database(path);
    db.prepare('UPDATE links SET expires_at = ? WHERE code_key = ?').run(Date.now() - 1, 'soon');
    db.close();

    const gone = await fetch(`${server.origin}/Soon`, { headers: { Accept: 'text/html' } });
    expect(gone.status).toBe(410);
    expect(gone.headers.get('content-type')).toMatch(/text\/html/);
    const again = await postJson(server.origin, '/api/v1/shorten', {
      original_url: 'https://example.org',
      custom_code: 'SOON',
    });
    expect(again.status).toBe(201);
    const redirect = await fetch(`${server.origin}/soon`, { redirect: 'manual' });
    expect(redirect.headers.get('location')).toBe('https://example.org/');
  });

  it('keeps links across a restart and exits 0 on SIGTERM', async () => {
    const path = freshDb();
    const first = await startServer({ DATABASE_URL: `sqlite:${path}` });
    const made = await postJson(first.origin, '/api/v1/shorten', { original_url: 'https://example.com/kept' });
    const { data } = await made.json();
    expect(await first.stop('SIGTERM')).toBe(0);

    const second = await start({ DATABASE_URL: `sqlite:${path}`, PORT: new URL(first.origin).port });
    const redirect = await fetch(`${second.origin}/${data.code}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://example.com/kept');
  });

  it('exits 0 on SIGINT too', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${freshDb()}` });
    expect(await server.stop('SIGINT')).toBe(0);
  });

  it('finishes an in-flight request before shutting down, then exits 0', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${freshDb()}` });
    const { port } = new URL(server.origin);
    const body = JSON.stringify({ original_url: 'https://example.com/in-flight', custom_code: 'inflight' });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/api/v1/shorten',
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // Half the body now, SIGTERM, then the rest: the request is in flight during shutdown.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        server.process.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 200);
      }, 200);
    });
    const answered = await response;
    expect(answered.status).toBe(201);
    expect(JSON.parse(answered.text).data.code).toBe('inflight');
    expect(await server.stop()).toBe(0);
    expect(server.logs.some((entry) => entry.msg === 'stopped')).toBe(true);
  });

  it('closes idle keep-alive connections on shutdown instead of waiting for them', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${freshDb()}` });
    const { port } = new URL(server.origin);
    const socketClosed = new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/health', headers: { Connection: 'keep-alive' } },
        (res) => {
          res.resume();
          res.on('end', () => {
            server.process.kill('SIGTERM');
          });
        },
      );
      req.on('socket', (socket) => socket.on('close', () => resolve()));
      req.on('error', reject);
      req.end();
    });
    await socketClosed;
    expect(await server.stop()).toBe(0);
  });

  it('writes one JSON log line per request with method, path, status, duration and request id', async () => {
    const server = await start({ DATABASE_URL: `sqlite:${freshDb()}` });
    const response = await fetch(`${server.origin}/health`, { headers: { 'X-Request-Id': 'trace-123' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('trace-123');
    await fetch(`${server.origin}/missing`);
    const lines = await server.waitForLogs((entry) => entry.msg === 'request', 2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      method: 'GET',
      path: '/health',
      status: 200,
      reqId: 'trace-123',
      durationMs: expect.any(Number),
    });
    expect(lines[1]).toMatchObject({ path: '/missing', status: 404, reqId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('refuses a chunked body over 16 KiB with 413 and keeps serving', async () => {
    const server = await start({ DATABASE_URL: `sqlite:${freshDb()}` });
    const big = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(1024).fill(0x20));
        controller.close();
      },
    });
    const response = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      body: big,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).status).toBe('error');
    expect((await fetch(`${server.origin}/health`)).status).toBe(200);
  });

  it('builds short URLs from BASE_URL, not from the Host header, and serves the configured time zone', async () => {
    const server = await start({
      DATABASE_URL: `sqlite:${freshDb()}`,
      BASE_URL: 'https://sho.rt/',
      TIMEZONE: 'Asia/Seoul',
    });
    const before = Date.now();
    // node:http, not fetch: fetch would not let the test set a foreign Host header.
    const answer = await new Promise<string>((resolve, reject) => {
      const body = JSON.stringify({ original_url: 'https://example.com', custom_code: 'tz', expire_duration: '24h' });
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: new URL(server.origin).port,
          path: '/api.php',
          method: 'POST',
          headers: { Host: 'evil.example' },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    const after = Date.now();
    const { data } = JSON.parse(answer);
    expect(data.short_url).toBe('https://sho.rt/tz');
    // Legacy dates carry no zone: read it as Seoul time (UTC+9, no DST) and it is 24 h from now.
    const expires = Date.parse(`${data.expiration_date.replace(' ', 'T')}+09:00`);
    expect(expires).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
    expect(expires).toBeLessThanOrEqual(after + 86_400_000);
    const loop = await postJson(server.origin, '/api/v1/shorten', { original_url: 'https://sho.rt/tz' });
    expect(loop.status).toBe(400);
  });

  it('lets two server processes share one SQLite file: one code, one winner', async () => {
    const path = freshDb();
    const a = await start({ DATABASE_URL: `sqlite:${path}` });
    const b = await start({ DATABASE_URL: `sqlite:${path}` });
    const attempts = Array.from({ length: 30 }, (_, i) =>
      postJson(i % 2 ? a.origin : b.origin, '/api/v1/shorten', {
        original_url: `https://example.com/${i}`,
        custom_code: 'shared',
      }),
    );
    const statuses = (await Promise.all(attempts)).map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(29);
  });
});

describe('configuration', () => {
  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ BASE_URL: 'ftp://sho.rt' }, /BASE_URL/],
    [{ TIMEZONE: 'Mars/Olympus' }, /TIMEZONE: must be an IANA time zone/],
    [{ DATABASE_URL: 'mysql://localhost/db' }, /DATABASE_URL: must start with sqlite:/],
    [{ MAX_URL_LENGTH: '-1' }, /MAX_URL_LENGTH/],
    [{ API_KEY: 'short' }, /API_KEY: must be at least 16 characters/],
    [{ CACHE_ENTRIES: '-1' }, /CACHE_ENTRIES/],
    [{ CACHE_SECONDS: '0' }, /CACHE_SECONDS/],
    [{ DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE/],
    [{ REDIRECT_CACHE_SECONDS: '-5' }, /REDIRECT_CACHE_SECONDS: must be a whole number of seconds from 0/],
  ])('refuses %o with a message and exit code 1', async (env, message) => {
    const { code, stderr } = await runFailingServer({ DATABASE_URL: `sqlite:${freshDb()}`, ...env });
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr).toMatch(/Invalid configuration/);
  });

  it('lists every bad variable at once, so one restart fixes them all', async () => {
    const { code, stderr } = await runFailingServer({ PORT: 'eighty', DATABASE_URL: 'sqlite:' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/PORT: /);
    expect(stderr).toMatch(/DATABASE_URL: sqlite: needs a file path/);
  });

  it('uses the defaults: 127.0.0.1, BASE_URL from PORT, SQLite under ./data', async () => {
    const server = await start({ DATABASE_URL: `sqlite:${freshDb()}` });
    const ready = server.logs.find((entry) => String(entry.msg).startsWith('Linklet is serving'));
    expect(ready).toMatchObject({ host: '127.0.0.1', url: server.url });
  });

  it('requires the API key on POST when API_KEY is set', async () => {
    const key = 'k'.repeat(24);
    const server = await start({ DATABASE_URL: `sqlite:${freshDb()}`, API_KEY: key });
    expect((await postJson(server.origin, '/api/v1/shorten', { original_url: 'https://example.com' })).status).toBe(
      401,
    );
    const ok = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: JSON.stringify({ original_url: 'https://example.com' }),
    });
    expect(ok.status).toBe(201);
  });
});
