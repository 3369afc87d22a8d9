import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../raw-http.js';
import { useServerProcesses } from './use-server-processes.js';

// How long a browser keeps a redirect is what decides whether it sees a disable, a new target or
// a delete: the header as the built server sends it over real HTTP, on both of its routes.
const servers = useServerProcesses('redirect-caching');

/**
 * The `Cache-Control` of `GET /{code}` by each route: a lower-case `Host` takes the Node fast
 * path; an upper-case one is left to the core handler (the fast path takes only plain hosts).
 */
async function cacheControls(port: number, code: string): Promise<{ fast: string; handler: string }> {
  const [fast, handler] = await Promise.all(
    [`localhost:${port}`, `LOCALHOST:${port}`].map((host) =>
      rawRequest(port, { method: 'GET', path: `/${code}`, headers: { Host: host } }),
    ),
  );
  for (const answer of [fast, handler]) expect(answer?.status).toBe(302);
  return { fast: fast?.headers['cache-control'] ?? '', handler: handler?.headers['cache-control'] ?? '' };
}

async function create(origin: string, code: string): Promise<void> {
  const response = await fetch(`${origin}/api/v1/shorten`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ original_url: `https://example.com/${code}`, custom_code: code, expire_duration: '24h' }),
  });
  expect(response.status).toBe(201);
}

describe('REDIRECT_CACHE_SECONDS on the server process', () => {
  it('lets a browser keep a redirect 60 s by default on both routes, not the day the link has left', async () => {
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}` });
    await create(server.origin, 'daily');
    const both = 'private, max-age=60';
    expect(await cacheControls(server.port, 'daily')).toEqual({ fast: both, handler: both });
  });

  it('sends no-store on both routes with 0, so the next click asks the server again', async () => {
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}`, REDIRECT_CACHE_SECONDS: '0' });
    await create(server.origin, 'never');
    expect(await cacheControls(server.port, 'never')).toEqual({ fast: 'no-store', handler: 'no-store' });
  });

  it('never lets a browser keep a redirect past the link, even with a longer setting', async () => {
    const path = servers.freshDb();
    // Without the link cache, so the expiry moved in the file below is the one the server reads.
    const server = await servers.start({
      DATABASE_URL: `sqlite:${path}`,
      REDIRECT_CACHE_SECONDS: '3600',
      CACHE_ENTRIES: '0',
    });
    await create(server.origin, 'soon');
    expect(await cacheControls(server.port, 'soon')).toEqual({
      fast: 'private, max-age=3600',
      handler: 'private, max-age=3600',
    });

    const db = new Database(path);
    db.prepare('UPDATE links SET expires_at = ? WHERE code_key = ?').run(Date.now() + 30_500, 'soon');
    db.close();
    const { fast, handler } = await cacheControls(server.port, 'soon');
    for (const header of [fast, handler]) {
      const seconds = Number(/^private, max-age=(\d+)$/.exec(header)?.[1]);
      expect(seconds).toBeGreaterThanOrEqual(25);
      expect(seconds).toBeLessThanOrEqual(30);
    }
  });
});
