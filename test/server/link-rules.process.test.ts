import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../raw-http.js';
import { useServerProcesses } from './use-server-processes.js';

// Rules, limits and query forwarding as the built server answers them over real HTTP on SQLite,
// on both of its routes: a lower-case `Host` takes the Node fast path, an upper-case one the core
// handler (the fast path takes only plain hosts). Both must decide every visit alike.
const servers = useServerProcesses('link-rules');

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

/** The same request over both routes: the fast path's answer, then the handler's. */
function bothRoutes(port: number, path: string, headers: Record<string, string> = {}) {
  return Promise.all(
    [`localhost:${port}`, `LOCALHOST:${port}`].map((host) =>
      rawRequest(port, { method: 'GET', path, headers: { Host: host, ...headers } }),
    ),
  );
}

async function create(origin: string, body: object): Promise<void> {
  const response = await fetch(`${origin}/api/v1/shorten`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ expire_duration: '24h', ...body }),
  });
  expect(response.status).toBe(201);
}

describe('link rules and limits on the server process (SQLite)', () => {
  it('sends each visitor where the rules say, forwarding the query, on the fast path and the handler alike', async () => {
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}`, COUNTRY_HEADER: 'CF-IPCountry' });
    await create(server.origin, {
      original_url: 'https://example.com/own?from=link',
      custom_code: 'ruled',
      forward_query: true,
      redirect_rules: [
        { target_url: 'https://example.com/android', conditions: [{ type: 'device', value: 'android' }] },
        { target_url: 'https://example.com/kr', conditions: [{ type: 'geolocation-country-code', value: 'KR' }] },
        { target_url: 'https://example.com/far', conditions: [{ type: 'ip-address', value: '10.0.0.0/8' }] },
        {
          target_url: 'https://example.com/here',
          conditions: [
            { type: 'ip-address', value: '127.0.0.0/8' },
            { type: 'query-param', key: 'utm_source', value: 'mail' },
          ],
        },
      ],
    });
    const cases: Array<[string, Record<string, string>, string]> = [
      ['/ruled', { 'User-Agent': ANDROID }, 'https://example.com/android'],
      ['/ruled?a=1', { 'CF-IPCountry': 'KR' }, 'https://example.com/kr?a=1'],
      ['/ruled?utm_source=mail', {}, 'https://example.com/here?utm_source=mail'],
      ['/ruled?from=visit&b=2', {}, 'https://example.com/own?from=visit&b=2'],
      ['/ruled', {}, 'https://example.com/own?from=link'],
    ];
    for (const [path, headers, location] of cases) {
      for (const answer of await bothRoutes(server.port, path, headers)) {
        expect(answer.status).toBe(302);
        expect(answer.headers.location).toBe(location);
        expect(answer.headers['cache-control']).toBe('private, no-store');
      }
    }
  });

  it('answers 410 before valid_since and once max_visits clicks are used, counting each click once across both routes', async () => {
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}` });
    await create(server.origin, {
      original_url: 'https://example.com/later',
      custom_code: 'later',
      valid_since: '2099-01-01T00:00:00Z',
    });
    for (const answer of await bothRoutes(server.port, '/later/')) {
      expect(answer.status).toBe(410);
      expect(JSON.parse(answer.body)).toEqual({
        status: 'error',
        message: 'This short link is not valid until 2099-01-01T00:00:00.000Z.',
      });
    }
    const [page] = await bothRoutes(server.port, '/later/', { Accept: 'text/html', 'Accept-Language': 'ko-KR' });
    expect(page?.body).toContain('아직 열리지 않은 링크입니다');

    await create(server.origin, { original_url: 'https://example.com/three', custom_code: 'three', max_visits: 3 });
    // A chat preview is no click: it never uses one up.
    for (const answer of await bothRoutes(server.port, '/three', { 'User-Agent': SLACKBOT }))
      expect(answer.status).toBe(302);
    // Two clicks, one by each route; then the click writer's beat puts them in the store's total.
    for (const answer of await bothRoutes(server.port, '/three')) expect(answer.status).toBe(302);
    await sleep(2500);
    // Counted once each (written, no longer noted): one click is left.
    const [third] = await bothRoutes(server.port, '/three');
    expect(third?.status).toBe(302);
    for (const answer of await bothRoutes(server.port, '/three')) {
      expect(answer.status).toBe(410);
      expect(JSON.parse(answer.body).message).toBe('This short link has used all its visits (3).');
    }
  });
});
