import { describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/server-process.mjs';
import { rawRequest } from '../raw-http.js';
import { useServerProcesses } from './use-server-processes.js';

// A protected link on the built server over real HTTP (SQLite): the fast path leaves it to the
// core whether or not the cache holds the link, the password opens it, the tries run out, and
// neither the password nor its hash reaches the log.
const servers = useServerProcesses('link-passwords');

const ADMIN = 'admin-key-for-the-password-process-test';
const SECRET = 'open sesame 열려라';
const KEY = { 'X-API-Key': ADMIN, 'Content-Type': 'application/json' };

/** GET of a short URL by the fast path's route (a lower-case Host), with these headers. */
const get = (port: number, code: string, headers: Record<string, string> = {}) =>
  rawRequest(port, { method: 'GET', path: `/${code}`, headers: { Host: `localhost:${port}`, ...headers } });

describe('link passwords on the server process', () => {
  it('asks for the password even once the cache knows the link, opens with it, and logs neither it nor its hash', async () => {
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}`, API_KEY: ADMIN });
    const made = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: KEY,
      body: JSON.stringify({ original_url: 'https://example.com/guarded', custom_code: 'guarded', password: SECRET }),
    });
    expect(made.status).toBe(201);
    expect(await made.text()).not.toContain(SECRET);

    // Plain GETs, again and again: the cache may hold the link by now, and still no redirect.
    for (let i = 0; i < 3; i++) {
      const answer = await get(server.port, 'guarded');
      expect(answer?.status).toBe(401);
      expect(answer?.headers.location).toBeUndefined();
    }
    const page = await get(server.port, 'guarded', { Accept: 'text/html', 'Accept-Language': 'ko' });
    expect(page?.status).toBe(200);
    expect(page?.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page?.body).toContain('비밀번호로 보호된 링크입니다');

    const right = await get(server.port, 'guarded', { 'X-Link-Password': SECRET });
    expect(right?.status).toBe(302);
    expect(right?.headers.location).toBe('https://example.com/guarded');
    expect(right?.headers['cache-control']).toBe('no-store');
    const form = await fetch(`${server.origin}/guarded`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: SECRET }).toString(),
    });
    expect(form.status).toBe(302);

    const shown = await fetch(`${server.origin}/api/v1/links/guarded`, { headers: KEY }).then((r) => r.json());
    expect(shown.data.password_protected).toBe(true);

    const logged = JSON.stringify(await server.waitForLogs((entry) => entry.path === '/guarded', 6)) + server.stderr();
    expect(logged).toContain('/guarded');
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toContain(encodeURIComponent(SECRET));
    expect(logged).not.toMatch(/scrypt\$/);
  });

  it('counts a click its password opens, and keeps its visit like any other', async () => {
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}`, API_KEY: ADMIN });
    const made = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: KEY,
      body: JSON.stringify({ original_url: 'https://example.com/members', custom_code: 'members', password: SECRET }),
    });
    expect(made.status).toBe(201);
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const opened = await get(server.port, 'members', {
      'X-Link-Password': SECRET,
      'User-Agent': firefox,
      Referer: 'https://news.example/story',
    });
    expect(opened?.status).toBe(302);
    const form = await fetch(`${server.origin}/members`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': firefox },
      body: new URLSearchParams({ password: SECRET }).toString(),
    });
    expect(form.status).toBe(302);

    // Clicks and their visits are written together, about once a second.
    let visits: Array<{ referrer: string | null; browser: string | null }> = [];
    for (let tries = 0; tries < 50 && visits.length < 2; tries++) {
      await new Promise((done) => setTimeout(done, 100));
      visits = (await fetch(`${server.origin}/api/v1/links/members/visits`, { headers: KEY }).then((r) => r.json()))
        .data.visits;
    }
    expect(visits.map(({ referrer, browser }) => ({ referrer, browser }))).toEqual([
      { referrer: 'direct', browser: 'Firefox' },
      { referrer: 'news.example', browser: 'Firefox' },
    ]);
    const shown = await fetch(`${server.origin}/api/v1/links/members`, { headers: KEY }).then((r) => r.json());
    expect(shown.data.clicks).toBe(2);
  });

  it('a link the cache holds gets its password by PATCH and loses it again, each at once', async () => {
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}`, API_KEY: ADMIN });
    await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: KEY,
      body: JSON.stringify({ original_url: 'https://example.com/later', custom_code: 'later' }),
    });
    for (let i = 0; i < 3; i++) expect((await get(server.port, 'later'))?.status).toBe(302); // cached now
    const patch = (password: string | null) =>
      fetch(`${server.origin}/api/v1/links/later`, {
        method: 'PATCH',
        headers: KEY,
        body: JSON.stringify({ password }),
      });
    expect((await patch(SECRET)).status).toBe(200);
    expect((await get(server.port, 'later'))?.status).toBe(401);
    expect((await get(server.port, 'later', { 'X-Link-Password': SECRET }))?.status).toBe(302);
    expect((await patch(null)).status).toBe(200);
    expect((await get(server.port, 'later'))?.status).toBe(302);
  });

  it('answers 429 after 5 tries a minute from one client for one link', async () => {
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}`, API_KEY: ADMIN });
    await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: KEY,
      body: JSON.stringify({ original_url: 'https://example.com/t', custom_code: 'tries', password: SECRET }),
    });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await get(server.port, 'tries', { 'X-Link-Password': 'a guess' }))?.status ?? 0);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const held = await get(server.port, 'tries', { 'X-Link-Password': SECRET });
    expect(held?.status).toBe(429);
    expect(Number(held?.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts an IPv6 client by its /64: rotating addresses in it runs out of tries all the same', async () => {
    const server = await servers.start({
      DATABASE_URL: `sqlite:${servers.freshDb()}`,
      API_KEY: ADMIN,
      TRUSTED_PROXIES: '127.0.0.1',
    });
    await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: KEY,
      body: JSON.stringify({ original_url: 'https://example.com/r', custom_code: 'rotated', password: SECRET }),
    });
    const guessFrom = async (address: string) =>
      (await get(server.port, 'rotated', { 'X-Link-Password': 'a guess', 'X-Forwarded-For': address }))?.status;
    const statuses: Array<number | undefined> = [];
    for (let i = 1; i <= 6; i++) statuses.push(await guessFrom(`2001:db8:5:6::${i.toString(16)}`));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Another network, and an IPv4 client (however its socket spells it), still have their tries.
    expect(await guessFrom('2001:db8:5:7::1')).toBe(401);
    expect(await guessFrom('::ffff:198.51.100.4')).toBe(401);
    expect(await guessFrom('198.51.100.5')).toBe(401);
  });

  it("never counts nor checks a password form that another site's page posted, and keeps API clients counted", async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const server = await servers.start({
      PORT: String(port),
      BASE_URL: origin,
      DATABASE_URL: `sqlite:${servers.freshDb()}`,
      API_KEY: ADMIN,
    });
    for (const code of ['lured', 'api-counted']) {
      const made = await fetch(`${origin}/api/v1/shorten`, {
        method: 'POST',
        headers: KEY,
        body: JSON.stringify({ original_url: `https://example.com/${code}`, custom_code: code, password: SECRET }),
      });
      expect(made.status).toBe(201);
    }
    const post = (code: string, password: string, headers: Record<string, string>) =>
      fetch(`${origin}/${code}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ password }).toString(),
      });
    // What a cross-site fetch(link, {method: 'POST', mode: 'no-cors'}) sends, and its variants.
    const elsewhere: Array<Record<string, string>> = [
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'http://127.0.0.1:1', 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://evil.example' }, // a browser without Fetch Metadata
      { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' }, // a sandboxed page
      { 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of elsewhere) {
      const answer = await post('lured', 'password=wrong', headers);
      expect(answer.status).toBe(403);
      expect(await answer.text()).toContain('The password was sent from another page, so it was not checked.');
    }
    // Nor is the right one checked: another site cannot test passwords through a visitor's browser.
    const right = await post('lured', SECRET, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(right.status).toBe(403);
    expect(right.headers.get('location')).toBeNull();
    // The visitor, on the link's own page, still has every try: four wrong ones, then the right
    // password opens the link. (Chromium sends `Origin: null` from it: the page's Referrer-Policy
    // is no-referrer.)
    for (let i = 0; i < 4; i++) {
      expect((await post('lured', 'wrong', { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' })).status).toBe(401);
    }
    const own = await post('lured', SECRET, { Origin: origin, 'Sec-Fetch-Site': 'same-origin' });
    expect(own.status).toBe(302);
    expect(own.headers.get('location')).toBe('https://example.com/lured');
    // A JSON client is told why, with the envelope.
    const api = await fetch(`${origin}/lured`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' },
      body: 'password=wrong',
    });
    expect(api.status).toBe(403);
    expect((await api.json()).message).toMatch(/X-Link-Password/);

    // An API client (neither Origin nor Sec-Fetch-Site) is counted as ever, by header or by form.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await get(port, 'api-counted', { 'X-Link-Password': 'a guess' }))?.status ?? 0);
    }
    for (let i = 0; i < 3; i++) statuses.push((await post('api-counted', 'a guess', {})).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(server.stderr()).toBe('');
  });

  it('behind a proxy serving it under a path, the password form posts to the short URL the visitor sees', async () => {
    const port = await freePort();
    const prefixed = `http://127.0.0.1:${port}/s`; // the proxy takes /s/… and sends /… on
    const server = await servers.start({
      PORT: String(port),
      BASE_URL: `${prefixed}/`,
      DATABASE_URL: `sqlite:${servers.freshDb()}`,
      API_KEY: ADMIN,
    });
    const made = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: KEY,
      body: JSON.stringify({ original_url: 'https://example.com/p', custom_code: '비밀-under', password: SECRET }),
    });
    expect((await made.json()).data.short_url).toBe(`${prefixed}/비밀-under/`);
    const page = await get(port, encodeURIComponent('비밀-under'), { Accept: 'text/html' });
    expect(page?.status).toBe(200);
    expect(page?.body).toContain(`<form method="post" action="${prefixed}/${encodeURIComponent('비밀-under')}">`);
  });
});
