import { describe, expect, it } from 'vitest';
import { ErrorType, type ProblemDetailsError, shlinkClient } from './shlink-sdk.js';
import { useServerProcesses } from './use-server-processes.js';

// Shlink's own JS SDK, as its web client and other JS clients use it, against a real server
// process: every call the SDK makes for them, and what it reads back (errors included).
const { freshDb, start } = useServerProcesses('shlink-sdk');
const ADMIN = 'admin-key-for-shlink-sdk-tests';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const DAY = 86_400_000;

/** The SDK's problem, as it throws it: the body of the error answer. */
async function problemOf(call: Promise<unknown>): Promise<ProblemDetailsError> {
  try {
    await call;
  } catch (error) {
    return error as ProblemDetailsError;
  }
  throw new Error('The call succeeded; a problem was expected.');
}

/** Polls until `read` gives what `done` accepts: clicks reach the store in batches, about once a second. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("Shlink's JS SDK against a real server", () => {
  it('creates, lists, reads, edits and deletes short URLs, with visits, tags, domains and health', {
    timeout: 60_000,
  }, async () => {
    const server = await start({ DATABASE_URL: `sqlite:${freshDb()}`, API_KEY: ADMIN, ACCESS_LOG: 'off' });
    const keyResponse = await fetch(`${server.origin}/api/v1/keys`, {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'alice' }),
    });
    expect(keyResponse.status).toBe(201);
    const aliceKey = ((await keyResponse.json()) as { data: { key: string } }).data.key;
    const alice = shlinkClient(server.origin, aliceKey);
    const admin = shlinkClient(server.origin, ADMIN);
    // Short URLs and the one domain come from the base URL (BASE_URL), not the address called.
    const host = new URL(server.url).host;

    expect(await alice.health()).toMatchObject({ status: 'pass', version: '4.4.0' });

    const before = Date.now();
    const validUntil = new Date(before + 7 * DAY).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    const launch = await alice.createShortUrl({
      longUrl: 'https://example.com/launch',
      customSlug: 'launch',
      tags: ['work', 'news'],
      title: 'The launch',
      validUntil,
    });
    expect(launch).toMatchObject({
      shortCode: 'launch',
      shortUrl: `${server.url}/launch`,
      longUrl: 'https://example.com/launch',
      tags: ['work', 'news'],
      title: 'The launch',
      domain: null,
      meta: { validSince: null, validUntil, maxVisits: null },
      visitsSummary: { total: 0, nonBots: 0, bots: 0 },
    });
    const plain = await alice.createShortUrl({ longUrl: 'https://example.com/plain', tags: ['news'] });
    const plainExpiry = Date.parse(plain.meta.validUntil ?? '');
    // COMPAT_EXPIRE_DURATION's default: a month.
    expect(plainExpiry - before).toBeGreaterThan(27 * DAY);
    expect(plainExpiry - before).toBeLessThan(32 * DAY);
    const again = await alice.createShortUrl({ longUrl: 'https://example.com/plain', findIfExists: true });
    expect(again.shortCode).toBe(plain.shortCode);

    const firstPage = await alice.listShortUrls({ itemsPerPage: 1, orderBy: { field: 'shortCode', dir: 'ASC' } });
    const codesInOrder = [launch.shortCode, plain.shortCode].sort();
    expect(firstPage.data.map((url) => url.shortCode)).toEqual(codesInOrder.slice(0, 1));
    expect(firstPage.pagination).toMatchObject({ currentPage: 1, pagesCount: 2, totalItems: 2 });
    const secondPage = await alice.listShortUrls({
      page: '2',
      itemsPerPage: 1,
      orderBy: { field: 'shortCode', dir: 'ASC' },
    });
    expect(secondPage.data.map((url) => url.shortCode)).toEqual(codesInOrder.slice(1));
    expect((await alice.listShortUrls({ searchTerm: 'LAUNCH' })).data.map((url) => url.shortCode)).toEqual(['launch']);
    expect((await alice.listShortUrls({ tags: ['work'] })).data.map((url) => url.shortCode)).toEqual(['launch']);
    expect(
      (
        await alice.listShortUrls({ excludePastValidUntil: true, orderBy: { field: 'dateCreated', dir: 'DESC' } })
      ).data.map((url) => url.shortCode),
    ).toEqual([plain.shortCode, 'launch']);

    // Real redirects with a browser's headers, and a bot's.
    for (const [agent, referer] of [
      [CHROME, 'https://news.example.org/story'],
      [SAFARI, undefined],
      [GOOGLEBOT, undefined],
    ] as const) {
      const followed = await fetch(`${server.origin}/launch`, {
        redirect: 'manual',
        headers: {
          'User-Agent': agent,
          Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
          'Accept-Language': 'en-US,en;q=0.9',
          ...(referer && { Referer: referer }),
        },
      });
      expect(followed.status).toBe(302);
      expect(followed.headers.get('location')).toBe('https://example.com/launch');
    }
    const visits = await eventually(
      () => alice.getShortUrlVisits({ shortCode: 'launch' }),
      (list) => list.pagination.totalItems === 3,
    );
    expect(visits.pagination).toMatchObject({ currentPage: 1, pagesCount: 1, totalItems: 3 });
    expect(visits.data.map((visit) => visit.potentialBot)).toEqual([true, false, false]);
    expect(visits.data.map((visit) => visit.referer)).toEqual(['', '', 'news.example.org']);
    for (const visit of visits.data) {
      expect(visit.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
      expect(visit.visitedUrl).toBe(`${server.url}/launch`);
    }
    const humans = await alice.getShortUrlVisits({ shortCode: 'launch' }, { excludeBots: true, itemsPerPage: 1 });
    expect(humans.pagination).toMatchObject({ pagesCount: 2, totalItems: 2 });
    const counted = await eventually(
      () => alice.getShortUrl({ shortCode: 'launch' }),
      (url) => url.visitsSummary.nonBots === 2,
    );
    expect(counted.visitsSummary).toEqual({ total: 3, nonBots: 2, bots: 1 });
    expect(await alice.getVisitsOverview()).toEqual({
      nonOrphanVisits: { total: 3, nonBots: 2, bots: 1 },
      orphanVisits: { total: 0, nonBots: 0, bots: 0 },
    });
    expect((await alice.getOrphanVisits()).data).toEqual([]);
    // The same visits across the key's links: all of them, by tag and by the one domain.
    const everyVisit = await alice.getNonOrphanVisits();
    expect(everyVisit.data).toEqual(visits.data);
    expect(everyVisit.pagination).toMatchObject({ totalItems: 3 });
    const tagged = await alice.getTagVisits('work', { excludeBots: true });
    expect(tagged.data.map((visit) => visit.visitedUrl)).toEqual([`${server.url}/launch`, `${server.url}/launch`]);
    expect((await alice.getDomainVisits(host)).pagination.totalItems).toBe(3);
    expect((await alice.getDomainVisits('DEFAULT', { itemsPerPage: 2, page: 2 })).data).toEqual([visits.data[2]]);
    expect(await problemOf(alice.getTagVisits('nothing'))).toMatchObject({
      type: ErrorType.TAG_NOT_FOUND,
      status: 404,
    });
    expect(await problemOf(alice.getDomainVisits('elsewhere.example'))).toMatchObject({
      type: ErrorType.DOMAIN_NOT_FOUND,
      status: 404,
    });

    expect(await alice.listTags()).toMatchObject({ data: ['news', 'work'] });
    const stats = await alice.tagsStats();
    expect(stats.data).toEqual([
      { tag: 'news', shortUrlsCount: 2, visitsSummary: { total: 3, nonBots: 2, bots: 1 } },
      { tag: 'work', shortUrlsCount: 1, visitsSummary: { total: 3, nonBots: 2, bots: 1 } },
    ]);
    expect(await alice.listDomains()).toEqual({
      data: [
        {
          domain: host,
          isDefault: true,
          redirects: { baseUrlRedirect: null, regular404Redirect: null, invalidShortUrlRedirect: null },
        },
      ],
      defaultRedirects: { baseUrlRedirect: null, regular404Redirect: null, invalidShortUrlRedirect: null },
    });
    expect(await alice.getShortUrlRedirectRules({ shortCode: 'launch' })).toEqual({
      defaultLongUrl: 'https://example.com/launch',
      redirectRules: [],
    });

    const renewTo = new Date(Date.now() + 20 * DAY).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    const edited = await alice.updateShortUrl(
      { shortCode: 'launch' },
      { longUrl: 'https://example.com/relaunch', title: 'Relaunch', tags: ['work'], validUntil: renewTo },
    );
    expect(edited).toMatchObject({
      longUrl: 'https://example.com/relaunch',
      title: 'Relaunch',
      tags: ['work'],
      meta: { validUntil: renewTo },
    });
    const moved = await fetch(`${server.origin}/launch`, { redirect: 'manual' });
    expect(moved.headers.get('location')).toBe('https://example.com/relaunch');

    // The SDK's errors: a taken slug, a bad key, a missing short URL, a value Linklet cannot honour.
    const taken = await problemOf(admin.createShortUrl({ longUrl: 'https://example.com/other', customSlug: 'launch' }));
    expect(taken).toMatchObject({ type: ErrorType.INVALID_SLUG, status: 400, customSlug: 'launch' });
    const badKey = shlinkClient(server.origin, 'not-a-key');
    expect(await problemOf(badKey.listShortUrls())).toMatchObject({ type: ErrorType.INVALID_API_KEY, status: 401 });
    expect(await problemOf(alice.getShortUrl({ shortCode: 'nothing' }))).toMatchObject({
      type: ErrorType.INVALID_SHORTCODE,
      status: 404,
      shortCode: 'nothing',
    });
    const tooFar = new Date(Date.now() + 40 * DAY).toISOString();
    expect(
      await problemOf(alice.createShortUrl({ longUrl: 'https://example.com/x', validUntil: tooFar })),
    ).toMatchObject({
      type: ErrorType.INVALID_ARGUMENT,
      status: 400,
      invalidElements: ['validUntil'],
    });

    await alice.deleteShortUrl({ shortCode: 'launch' });
    expect(await problemOf(alice.getShortUrl({ shortCode: 'launch' }))).toMatchObject({
      type: ErrorType.INVALID_SHORTCODE,
    });
    expect((await fetch(`${server.origin}/launch`, { redirect: 'manual' })).status).toBe(404);
    expect((await admin.listShortUrls()).data.map((url) => url.shortCode)).toEqual([plain.shortCode]);
    expect(await server.stop()).toBe(0);
  });

  it('renames and deletes tags, deletes a short URL’s visits, and sets redirect rules in Shlink’s shape', {
    timeout: 60_000,
  }, async () => {
    const server = await start({ DATABASE_URL: `sqlite:${freshDb()}`, API_KEY: ADMIN, ACCESS_LOG: 'off' });
    const alice = shlinkClient(server.origin, ADMIN);
    await alice.createShortUrl({ longUrl: 'https://example.com/a', customSlug: 'tagged-a', tags: ['work', 'news'] });
    await alice.createShortUrl({ longUrl: 'https://example.com/b', customSlug: 'tagged-b', tags: ['news', 'job'] });

    expect(await alice.editTag({ oldName: 'news', newName: 'job' })).toEqual({ oldName: 'news', newName: 'job' });
    expect((await alice.getShortUrl({ shortCode: 'tagged-a' })).tags).toEqual(['work', 'job']);
    expect((await alice.getShortUrl({ shortCode: 'tagged-b' })).tags).toEqual(['job']);
    expect(await problemOf(alice.editTag({ oldName: 'news', newName: 'x' }))).toMatchObject({
      type: ErrorType.TAG_NOT_FOUND,
      status: 404,
    });
    expect(await alice.deleteTags(['job'])).toEqual({ tags: ['job'] });
    expect((await alice.listTags()).data).toEqual(['work']);

    for (const userAgent of [CHROME, SAFARI, GOOGLEBOT]) {
      await fetch(`${server.origin}/tagged-a`, { redirect: 'manual', headers: { 'User-Agent': userAgent } });
    }
    // Deleted at once: the server writes what it counted first, so the answer counts all three.
    expect(await alice.deleteShortUrlVisits({ shortCode: 'tagged-a' })).toEqual({ deletedVisits: 3 });
    expect((await alice.getShortUrl({ shortCode: 'tagged-a' })).visitsSummary).toEqual({
      total: 0,
      nonBots: 0,
      bots: 0,
    });
    expect((await alice.getShortUrlVisits({ shortCode: 'tagged-a' })).data).toEqual([]);

    const rule = {
      longUrl: 'https://example.com/android',
      conditions: [{ type: 'device' as const, matchKey: null, matchValue: 'android' }],
    };
    const set = await alice.setShortUrlRedirectRules({ shortCode: 'tagged-a' }, { redirectRules: [rule] });
    expect(set).toEqual({ defaultLongUrl: 'https://example.com/a', redirectRules: [{ ...rule, priority: 1 }] });
    expect(await alice.getShortUrlRedirectRules({ shortCode: 'tagged-a' })).toEqual(set);
    expect((await alice.getShortUrl({ shortCode: 'tagged-a' })).hasRedirectRules).toBe(true);
    const android =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
    const sent = await fetch(`${server.origin}/tagged-a`, { redirect: 'manual', headers: { 'User-Agent': android } });
    expect(sent.headers.get('location')).toBe('https://example.com/android');

    const limited = await alice.createShortUrl({
      longUrl: 'https://example.com/limited',
      customSlug: 'limited',
      maxVisits: 5,
      validSince: '2026-01-01T00:00:00+00:00',
      forwardQuery: true,
    });
    expect(limited).toMatchObject({
      meta: { maxVisits: 5, validSince: '2026-01-01T00:00:00+00:00' },
      forwardQuery: true,
    });
    const edited = await alice.updateShortUrl({ shortCode: 'limited' }, { maxVisits: null, forwardQuery: false });
    expect(edited).toMatchObject({
      meta: { maxVisits: null, validSince: '2026-01-01T00:00:00+00:00' },
      forwardQuery: false,
    });
    const refused = await problemOf(
      alice.setShortUrlRedirectRules(
        { shortCode: 'tagged-a' },
        {
          redirectRules: [
            { ...rule, conditions: [{ type: 'geolocation-city-name', matchKey: null, matchValue: 'Seoul' }] },
          ],
        },
      ),
    );
    expect(refused).toMatchObject({
      type: ErrorType.INVALID_ARGUMENT,
      status: 400,
      invalidElements: ['redirectRules'],
    });
    expect(await server.stop()).toBe(0);
  });

  it("answers the rate limiter's 429 on Shlink's paths as a problem the SDK reads", { timeout: 30_000 }, async () => {
    const server = await start({
      DATABASE_URL: `sqlite:${freshDb()}`,
      API_KEY: ADMIN,
      ACCESS_LOG: 'off',
      RATE_LIMIT_PER_MINUTE: '1',
    });
    const admin = shlinkClient(server.origin, ADMIN);
    expect(await admin.listTags()).toMatchObject({ data: [] });
    const limited = await problemOf(admin.listTags());
    expect(limited).toMatchObject({ type: 'https://shlink.io/api/error/too-many-requests', status: 429 });
    expect(limited.detail).toMatch(/try again/);
    expect(await server.stop()).toBe(0);
  });
});
