import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useServerProcesses } from './use-server-processes.js';

// The headers of the two answers Linklet gives most (a click's 302, a create's 201), over a real
// server process: each carries only what its client uses, and the log still ties each to its request.

const servers = useServerProcesses('answer-headers');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHORT_POLICY = "default-src 'none'; frame-ancestors 'none'";

const accessControl = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('answer headers', () => {
  it('a 302 names the request id only when the request sent one; the log names one for each', async () => {
    const logFile = `${servers.freshDb()}.log`;
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}` }, { log: { file: logFile } });
    const made = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ original_url: 'https://example.com/landing', custom_code: 'hdr' }),
    });
    expect(made.status).toBe(201);

    const bare = await fetch(`${server.origin}/hdr`, { redirect: 'manual' });
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe('https://example.com/landing');
    expect(bare.headers.get('x-request-id')).toBeNull();
    expect(bare.headers.get('referrer-policy')).toBe('no-referrer');
    const traced = await fetch(`${server.origin}/hdr`, { redirect: 'manual', headers: { 'X-Request-Id': 'trace-7' } });
    expect(traced.status).toBe(302);
    expect(traced.headers.get('x-request-id')).toBe('trace-7');
    expect(await server.stop()).toBe(0);

    const redirects = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === 'request' && entry.path === '/hdr');
    expect(redirects).toEqual([
      expect.objectContaining({ status: 302, reqId: expect.stringMatching(UUID) }),
      expect.objectContaining({ status: 302, reqId: 'trace-7' }),
    ]);
  });

  it('JSON carries CORS only for a request with Origin, nosniff and the short policy always', async () => {
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}` });
    const create = (headers: Record<string, string>, body: unknown = { original_url: 'https://example.com/a' }) =>
      fetch(`${server.origin}/api/v1/shorten`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    // A create (the fast path), a refused create, a read of the core handler's, each without and with Origin.
    const sends: Array<(headers: Record<string, string>) => Promise<Response>> = [
      (headers) => create(headers),
      (headers) => create(headers, { original_url: 'javascript:alert(1)' }),
      (headers) => fetch(`${server.origin}/api/v1/openapi.json`, { headers }),
    ];
    for (const send of sends) {
      const alone = await send({});
      expect(alone.headers.get('content-type')).toMatch(/^application\/json/);
      expect(accessControl(alone)).toEqual([]);
      expect(alone.headers.get('x-content-type-options')).toBe('nosniff');
      expect(alone.headers.get('content-security-policy')).toBe(SHORT_POLICY);
      expect(alone.headers.get('x-request-id')).toMatch(UUID);

      const fromPage = await send({ Origin: 'https://page.example' });
      expect(fromPage.headers.get('access-control-allow-origin')).toBe('*');
      expect(fromPage.headers.get('access-control-expose-headers')).toBe('Location, Retry-After');
      expect(fromPage.headers.get('x-content-type-options')).toBe('nosniff');
      expect(fromPage.headers.get('content-security-policy')).toBe(SHORT_POLICY);
    }
    // The preflight a page's script sends first still allows the create.
    const preflight = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://page.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, x-api-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });
});
