import { expect } from 'vitest';
import { call, shortPath } from './http-calls.js';
import { comparable, type ListedLink, listAll } from './list-links.js';
import type { MadeLink, ReleaseData } from './write-release-data.js';

const STATUS_OF_FATE = { active: 'active', expired: 'expired', disabled: 'disabled' } as const;
const OPEN_STATUS = { active: 302, expired: 410, disabled: 410, deleted: 404 } as const;

/** Legacy creates report their expiry to the second; the listing keeps milliseconds. */
const sameExpiry = (listed: string, made: MadeLink) => Math.abs(Date.parse(listed) - made.expiresAt) < 1000;

/**
 * Lists after the update: the administrator sees every link made before it (and none deleted),
 * each owner's key still works and sees exactly that owner's links, with targets, expiries,
 * states and click counts as they were. `before` is the old release's own listing where it had one.
 */
export async function checkListed(origin: string, adminKey: string, data: ReleaseData, before?: ListedLink[]) {
  const listed = new Map((await listAll(origin, adminKey)).map((link) => [link.code, link]));
  for (const made of data.links) {
    const link = listed.get(made.code);
    if (made.fate === 'deleted') {
      expect(link, `deleted link ${made.code} is listed`).toBeUndefined();
      continue;
    }
    expect(link, `link ${made.code} made before the update is not listed`).toBeDefined();
    expect(link?.original_url).toBe(made.target);
    expect(link?.status).toBe(STATUS_OF_FATE[made.fate]);
    if (made.fate !== 'expired') expect(sameExpiry(link?.expiration_date ?? '', made), made.code).toBe(true);
    expect(link?.clicks, `clicks of ${made.code}`).toBe(made.clicks);
    if (made.title !== undefined) {
      expect(link?.title, `title of ${made.code}`).toBe(made.title);
      expect(link?.tags, `tags of ${made.code}`).toEqual(made.tags);
    }
    if (made.password !== undefined) expect(link?.password_protected, made.code).toBe(true);
  }
  // A tag finds its links as before: the filter reads what the old release stored.
  for (const made of data.links.filter((link) => link.tags !== undefined && link.fate !== 'deleted')) {
    for (const tag of made.tags ?? []) {
      const tagged = await call(origin, 'GET', `/api/v1/links?tag=${encodeURIComponent(tag)}`, { key: adminKey });
      expect(tagged.status).toBe(200);
      expect(
        tagged.body.data.links.map((link: ListedLink) => link.code),
        `links tagged ${tag}`,
      ).toContain(made.code);
    }
  }
  const expiredCodes = new Set(data.links.filter((made) => made.fate === 'expired').map((made) => made.code));
  for (const old of before ?? []) {
    if (expiredCodes.has(old.code)) continue; // its expiry was moved on purpose
    const now = listed.get(old.code);
    expect(now && comparable(now), `link ${old.code} as the old release listed it`).toEqual(comparable(old));
  }

  for (const [name, key] of Object.entries(data.keys)) {
    const me = await call(origin, 'GET', '/api/v1/me', { key });
    expect(me.status, `key of ${name}`).toBe(200);
    expect(me.body.data.name).toBe(name);
    const own = (await listAll(origin, key)).map((link) => link.code).sort();
    const made = data.links.filter((link) => link.owner === name && link.fate !== 'deleted').map((link) => link.code);
    expect(own, `links of ${name}`).toEqual(made.sort());
  }
}

/**
 * Opens every link made before the update: the same redirect for an active link (HEAD, so no
 * click is counted), 410 for an expired or disabled one, 404 for a deleted one. A link with a
 * password still asks for it: 401 without it or with a wrong one, the redirect with it.
 */
export async function checkOpens(origin: string, data: ReleaseData) {
  const head = (code: string, password?: string) =>
    fetch(`${origin}${shortPath(code)}`, {
      method: 'HEAD',
      redirect: 'manual',
      headers: password === undefined ? {} : { 'X-Link-Password': password },
    });
  for (const made of data.links) {
    const answer = await head(made.code, made.password);
    expect(answer.status, `HEAD ${made.code} (${made.fate})`).toBe(OPEN_STATUS[made.fate]);
    if (made.fate === 'active') expect(answer.headers.get('location')).toBe(made.location);
    if (made.password === undefined || made.fate !== 'active') continue;
    expect((await head(made.code)).status, `${made.code} without its password`).toBe(401);
    expect((await head(made.code, `${made.password}?`)).status, `${made.code} with a wrong password`).toBe(401);
  }
}

/** A click on an old link is counted on top of the clicks it had (written within about a second). */
export async function checkCounting(origin: string, adminKey: string, made: MadeLink) {
  // A browser's click: a script's own User-Agent (Node's "node") is a bot, a visit but no click.
  const browser = {
    'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  };
  expect((await fetch(`${origin}${shortPath(made.code)}`, { redirect: 'manual', headers: browser })).status).toBe(302);
  const path = `/api/v1/links/${encodeURIComponent(made.code)}`;
  let clicks: number | undefined;
  for (let tries = 0; tries < 50 && clicks !== made.clicks + 1; tries++) {
    await new Promise((done) => setTimeout(done, 100));
    clicks = (await call(origin, 'GET', path, { key: adminKey })).body?.data?.clicks;
  }
  expect(clicks).toBe(made.clicks + 1);
}

/**
 * New creates after the update: generated codes are new, a code held by an old link (in another
 * letter case) is still taken, and the codes of expired and deleted links are free again.
 */
export async function checkNewCreates(origin: string, adminKey: string, data: ReleaseData) {
  const held = new Set(data.links.map((link) => link.code.toLowerCase()));
  for (let i = 0; i < 5; i++) {
    const v1 = await call(origin, 'POST', '/api/v1/shorten', {
      key: adminKey,
      body: { original_url: `https://example.com/after/${i}` },
    });
    expect(v1.status).toBe(201);
    expect(held.has(v1.body.data.code)).toBe(false);
    held.add(v1.body.data.code);
  }
  const legacy = await call(origin, 'POST', '/api.php', {
    key: adminKey,
    body: { original_url: 'https://example.com/after/legacy' },
  });
  expect(legacy.status).toBe(200);
  const taken = (code: string) =>
    call(origin, 'POST', '/api/v1/shorten', {
      key: adminKey,
      body: { original_url: 'https://example.com/x', custom_code: code },
    });
  expect((await taken('PROMO-2024_X')).status).toBe(409);
  expect((await taken('서울')).status).toBe(409);
  for (const made of data.links.filter((link) => link.fate === 'expired' || link.fate === 'deleted')) {
    expect((await taken(made.code)).status, `code ${made.code} of a ${made.fate} link`).toBe(201);
  }
  for (const [name, key] of Object.entries(data.keys)) {
    const own = await call(origin, 'POST', '/api/v1/shorten', {
      key,
      body: { original_url: `https://example.com/${name}/new` },
    });
    expect(own.status, `create with the key of ${name}`).toBe(201);
  }
}
