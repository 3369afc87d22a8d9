import { describe, expect, it } from 'vitest';
import { SHLINK_ENDPOINTS } from '../../core/compat/shlink/shlink-endpoints.js';
import { VISITS_ACROSS_LINKS_BOUNDS } from '../../core/compat/shlink/visits-across-links.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { makeCountingHandler } from './counting-handler.js';
import { DAY, HOUR, makeHandler, START } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** Shlink's dates: seconds and the offset spelled out. */
const shlinkDate = (at: number) => `${new Date(at).toISOString().slice(0, 19)}+00:00`;
/** A body of any JSON media type (Shlink's problems and health have their own). */
const read = async (response: Response) => JSON.parse(await response.text());
const problemType = (name: string) => `https://shlink.io/api/error/${name}`;

/** A server-like handler (memory store with owners, real click counter) with alice's and bob's keys. */
async function withShlink() {
  const { store, counter, app } = makeCountingHandler({ apiKey: ADMIN });
  const makeKey = async (name: string) =>
    (await read(await app.post('/api/v1/keys', { name }, { 'X-API-Key': ADMIN }))).data.key as string;
  const alice = await makeKey('alice');
  const bob = await makeKey('bob');
  const send = (method: string, path: string, key: string | undefined, body?: unknown, extra = {}) =>
    app.fetch(path, {
      method,
      headers: {
        ...extra,
        ...(key ? { 'x-api-key': key } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const create = async (key: string, body: object, version = 'v3') => {
    const response = await send('POST', `/rest/${version}/short-urls`, key, body);
    return { status: response.status, body: await read(response), headers: response.headers };
  };
  return { app, store, counter, alice, bob, send, create };
}

describe('Shlink: health and the problem documents', () => {
  it('answers health at /rest/health, /rest/v3/health and /rest/v2/health without a key, as Shlink writes it', async () => {
    const { send } = await withShlink();
    for (const path of ['/rest/health', '/rest/v3/health', '/rest/v2/health']) {
      const response = await send('GET', path, undefined);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/health+json');
      expect(await read(response)).toEqual({
        status: 'pass',
        version: '4.4.0',
        links: { about: 'https://shlink.io', project: 'https://github.com/shlinkio/shlink' },
      });
    }
  });

  it('fails health (503) when the store does not answer', async () => {
    const store = createMemoryLinkStore();
    const app = makeHandler({ store: { ...store, ping: () => Promise.reject(new Error('down')) } as typeof store });
    const response = await app.fetch('/rest/v3/health');
    expect(response.status).toBe(503);
    expect(await read(response)).toMatchObject({ status: 'fail', version: '4.4.0' });
  });

  it('refuses a missing key (missing-authentication) and a wrong one (invalid-api-key) with 401 problems', async () => {
    const { send } = await withShlink();
    const missing = await send('GET', '/rest/v3/short-urls', undefined);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    // CORS only for a browser's script (which sends Origin, as Shlink's web client does).
    expect(missing.headers.get('access-control-allow-origin')).toBeNull();
    const fromPage = await send('GET', '/rest/v3/short-urls', undefined, undefined, {
      Origin: 'https://app.shlink.io',
    });
    expect(fromPage.status).toBe(401);
    expect(fromPage.headers.get('access-control-allow-origin')).toBe('*');
    expect(await read(missing)).toEqual({
      type: problemType('missing-authentication'),
      title: 'Invalid authorization',
      detail: 'Expected one of the following authentication headers, ["X-Api-Key"], but none were provided',
      status: 401,
      expectedHeaders: ['X-Api-Key'],
    });
    const wrong = await send('GET', '/rest/v2/tags', 'lk_notakeynotakeynotakeynotakeynotakey00');
    expect(wrong.status).toBe(401);
    expect(await read(wrong)).toMatchObject({
      type: problemType('invalid-api-key'),
      title: 'Invalid API key',
      status: 401,
    });
  });

  it('answers unknown Shlink paths, wrong methods and bad JSON as problems; /rest itself stays a short URL', async () => {
    const { send, alice, app } = await withShlink();
    const unknown = await send('GET', '/rest/v3/nothing-here', alice);
    expect(unknown.status).toBe(404);
    expect(await read(unknown)).toMatchObject({ type: problemType('not-found'), status: 404 });
    const method = await send('PUT', '/rest/v3/short-urls', alice);
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    expect(await read(method)).toMatchObject({ type: problemType('method-not-allowed'), status: 405 });
    const badJson = await send('POST', '/rest/v3/short-urls', alice, '{"longUrl":');
    expect(badJson.status).toBe(400);
    expect(await read(badJson)).toMatchObject({ type: problemType('invalid-data'), invalidElements: [] });
    // A version's prefix without its trailing slash is Shlink's too: its 404 is a problem, with CORS.
    for (const path of ['/rest/v3', '/rest/v2']) {
      for (const key of [alice, undefined]) {
        const bare = await send('GET', path, key, undefined, { Origin: 'https://app.shlink.io' });
        expect(bare.status, path).toBe(404);
        expect(bare.headers.get('content-type'), path).toBe('application/problem+json');
        expect(bare.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(await read(bare), path).toMatchObject({ type: problemType('not-found'), status: 404 });
      }
      const bareMethod = await send('DELETE', path, alice);
      expect(await read(bareMethod)).toMatchObject({ type: problemType('not-found'), status: 404 });
    }
    const rest = await app.fetch('/rest');
    expect(rest.status).toBe(404);
    expect(rest.headers.get('content-type')).not.toBe('application/problem+json');
    const preflight = await app.fetch('/rest', {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('refuses a body that is not JSON in Shlink’s field names, never Linklet’s', async () => {
    const { send, alice, create } = await withShlink();
    await create(alice, { longUrl: 'https://example.com/page', customSlug: 'page' });
    for (const [method, path, body] of [
      ['POST', '/rest/v3/short-urls', 'longUrl=https://example.com/form'],
      ['POST', '/rest/v3/short-urls', ' '],
      ['PATCH', '/rest/v3/short-urls/page', 'title=New'],
      ['POST', '/rest/v3/short-urls', '[1]'],
    ] as const) {
      const response = await send(method, path, alice, body);
      expect(response.status, body).toBe(400);
      const problem = await read(response);
      expect(problem, body).toMatchObject({ type: problemType('invalid-data'), invalidElements: [] });
      expect(problem.detail, body).toContain('{"longUrl":"https://example.com"}');
      expect(problem.detail, body).not.toContain('original_url');
    }
    const rules = await read(await send('POST', '/rest/v3/short-urls/page/redirect-rules', alice, 'rules'));
    expect(rules.detail).toContain('{"redirectRules":[]}');
  });

  it('answers a body over the limit (raised before the route) as a 413 problem', async () => {
    const app = makeHandler({ apiKey: ADMIN, maxBodyBytes: 64 });
    const response = await app.fetch('/rest/v3/short-urls', {
      method: 'POST',
      headers: { 'X-Api-Key': ADMIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ longUrl: `https://example.com/${'a'.repeat(100)}` }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await read(response)).toMatchObject({ type: problemType('payload-too-large'), status: 413 });
  });

  it('lets a browser on another origin call every method with X-Api-Key and a JSON body (CORS preflight)', async () => {
    const { app } = await withShlink();
    // PUT for the web client's tag rename (PUT /tags), whose not-supported problem it must be able to read.
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await app.fetch('/rest/v3/tags', {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://app.shlink.io',
          'Access-Control-Request-Method': method,
          'Access-Control-Request-Headers': 'x-api-key,content-type',
        },
      });
      expect(response.status, method).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toContain(method);
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    }
    // Linklet's own API takes no PUT, so its preflight does not offer it.
    const v1 = await app.fetch('/api/v1/links', {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'PUT' },
    });
    expect(v1.headers.get('access-control-allow-methods')).not.toContain('PUT');
  });
});

describe('Shlink: creating, reading, editing and deleting short URLs', () => {
  it('creates with tags, title and customSlug, as Shlink writes a short URL, living COMPAT_EXPIRE_DURATION', async () => {
    const { create, app } = await withShlink();
    const made = await create(ADMIN, {
      longUrl: 'https://example.com/page',
      customSlug: 'Launch',
      tags: ['Work', 'news'],
      title: 'The launch',
      validSince: null,
      maxVisits: null,
      crawlable: false,
      forwardQuery: false,
      domain: null,
      shortCodeLength: null,
      findIfExists: false,
    });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({
      shortUrl: 'https://sho.rt/Launch',
      shortCode: 'Launch',
      longUrl: 'https://example.com/page',
      dateCreated: shlinkDate(START),
      tags: ['work', 'news'],
      meta: { validSince: null, validUntil: shlinkDate(Date.UTC(2026, 1, 28, 12)), maxVisits: null },
      domain: null,
      title: 'The launch',
      crawlable: false,
      forwardQuery: false,
      visitsSummary: { total: 0, nonBots: 0, bots: 0 },
      hasRedirectRules: false,
    });
    expect(made.headers.get('content-type')).toMatch(/^application\/json/);
    const followed = await app.fetch('/launch');
    expect(followed.status).toBe(302);
    expect(followed.headers.get('location')).toBe('https://example.com/page');
  });

  it('honours validUntil within 31 days exactly, and refuses a past or farther one with invalid-data', async () => {
    const { create } = await withShlink();
    const until = START + 31 * DAY;
    const made = await create(ADMIN, { longUrl: 'https://example.com/a', validUntil: shlinkDate(until) });
    expect(made.status).toBe(200);
    expect(made.body.meta.validUntil).toBe(shlinkDate(until));
    for (const validUntil of [shlinkDate(until + 1000), shlinkDate(START - HOUR), 'next week']) {
      const refused = await create(ADMIN, { longUrl: 'https://example.com/a', validUntil });
      expect(refused.status, validUntil).toBe(400);
      expect(refused.body).toMatchObject({ type: problemType('invalid-data'), invalidElements: ['validUntil'] });
    }
    const farther = await create(ADMIN, { longUrl: 'https://example.com/a', validUntil: shlinkDate(until + DAY) });
    expect(farther.body.detail).toMatch(/at most 31 days/);
  });

  it("refuses a taken slug (non-unique-slug, 400), Shlink's options it cannot honour, and bad fields in Shlink's names", async () => {
    const { create, alice, bob } = await withShlink();
    expect((await create(alice, { longUrl: 'https://example.com/a', customSlug: 'taken' })).status).toBe(200);
    const taken = await create(bob, { longUrl: 'https://example.com/b', customSlug: 'TAKEN' });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({
      type: problemType('non-unique-slug'),
      title: 'Invalid custom slug',
      detail: 'Provided slug "TAKEN" is already in use.',
      status: 400,
      customSlug: 'TAKEN',
    });
    const refusals: Array<[object, string]> = [
      [{ validSince: 'next week' }, 'validSince'],
      [{ maxVisits: 0 }, 'maxVisits'],
      [{ maxVisits: 2.5 }, 'maxVisits'],
      [{ maxVisits: '10' }, 'maxVisits'],
      [{ forwardQuery: 'yes' }, 'forwardQuery'],
      [{ crawlable: true }, 'crawlable'],
      [{ domain: 'other.example' }, 'domain'],
      [{ shortCodeLength: 8 }, 'shortCodeLength'],
      [{ deviceLongUrls: { android: 'https://example.com/android' } }, 'deviceLongUrls'],
      [{ tags: ['two words'] }, 'tags'],
      [{ customSlug: 'no spaces' }, 'customSlug'],
    ];
    for (const [extra, field] of refusals) {
      const refused = await create(alice, { longUrl: 'https://example.com/c', ...extra });
      expect(refused.status, field).toBe(400);
      expect(refused.body.invalidElements, field).toEqual([field]);
      expect(refused.body.detail, field).toBeTruthy();
    }
    const badUrl = await create(alice, { longUrl: 'ftp://example.com/file' });
    expect(badUrl.body).toMatchObject({ type: problemType('invalid-data'), invalidElements: ['longUrl'] });
    expect(badUrl.body.detail).toMatch(/^longUrl must use http or https/);
    expect(badUrl.body.detail).not.toContain('original_url');
    expect((await create(alice, {})).body.invalidElements).toEqual(['longUrl']);
    // Shlink's default, which its web client's create form sends: the link forwards the query.
    const forwarding = await create(alice, { longUrl: 'https://example.com/q', forwardQuery: true });
    expect(forwarding.status).toBe(200);
    expect(forwarding.body.forwardQuery).toBe(true);
    // Left out, Linklet's default: no forwarding.
    expect((await create(alice, { longUrl: 'https://example.com/q2' })).body.forwardQuery).toBe(false);
  });

  it('findIfExists answers the existing link of the same long URL instead of making another', async () => {
    const { create, alice, bob } = await withShlink();
    const first = await create(alice, { longUrl: 'https://example.com/same' });
    const again = await create(alice, { longUrl: 'https://example.com/same', findIfExists: true });
    expect(again.body.shortCode).toBe(first.body.shortCode);
    // Another owner's link is not theirs to reuse.
    const bobs = await create(bob, { longUrl: 'https://example.com/same', findIfExists: true });
    expect(bobs.body.shortCode).not.toBe(first.body.shortCode);
  });

  it('gets, edits (renewing with validUntil) and deletes one, under v3 and v2 alike', async () => {
    const { create, send, alice, app } = await withShlink();
    await create(alice, { longUrl: 'https://example.com/old', customSlug: 'edit-me', tags: ['a'] });
    const fetched = await read(await send('GET', '/rest/v2/short-urls/EDIT-ME', alice));
    expect(fetched).toMatchObject({ shortCode: 'edit-me', longUrl: 'https://example.com/old', tags: ['a'] });
    app.clock.advance(DAY);
    const renewTo = app.clock.now + 10 * DAY;
    const edited = await send('PATCH', '/rest/v3/short-urls/edit-me', alice, {
      longUrl: 'https://example.com/new',
      title: 'New',
      tags: ['b', 'c'],
      validUntil: shlinkDate(renewTo),
      validSince: null,
      maxVisits: null,
      crawlable: false,
      forwardQuery: false,
    });
    expect(edited.status).toBe(200);
    expect(await read(edited)).toMatchObject({
      longUrl: 'https://example.com/new',
      title: 'New',
      tags: ['b', 'c'],
      meta: { validUntil: shlinkDate(renewTo) },
    });
    // The expiry sent back unchanged (as an edit form does) or null leaves it as it is.
    const same = await read(
      await send('PATCH', '/rest/v3/short-urls/edit-me', alice, { validUntil: shlinkDate(renewTo), title: null }),
    );
    expect(same).toMatchObject({ title: null, meta: { validUntil: shlinkDate(renewTo) } });
    const far = await send('PATCH', '/rest/v3/short-urls/edit-me', alice, {
      validUntil: shlinkDate(app.clock.now + 40 * DAY),
    });
    expect(far.status).toBe(400);
    // An expired link takes a renewal and nothing else.
    app.clock.advance(11 * DAY);
    const expired = await send('PATCH', '/rest/v3/short-urls/edit-me', alice, { title: 'late' });
    expect(expired.status).toBe(410);
    expect(await read(expired)).toMatchObject({ status: 410, shortCode: 'edit-me' });
    const renewed = await send('PATCH', '/rest/v3/short-urls/edit-me', alice, {
      validUntil: shlinkDate(app.clock.now + DAY),
    });
    expect(renewed.status).toBe(200);
    const deleted = await send('DELETE', '/rest/v3/short-urls/edit-me', alice);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const gone = await send('GET', '/rest/v3/short-urls/edit-me', alice);
    expect(gone.status).toBe(404);
    expect(await read(gone)).toEqual({
      type: problemType('short-url-not-found'),
      title: 'Short URL not found',
      detail: 'No URL found with short code "edit-me"',
      status: 404,
      shortCode: 'edit-me',
    });
  });

  it("keeps owners apart: another owner's short URL is short-url-not-found; the administrator sees all", async () => {
    const { create, send, alice, bob } = await withShlink();
    await create(alice, { longUrl: 'https://example.com/alice', customSlug: 'alices' });
    for (const [method, body] of [['GET'], ['PATCH', { title: 'mine' }], ['DELETE']] as const) {
      const response = await send(method, '/rest/v3/short-urls/alices', bob, body);
      expect(response.status, method).toBe(404);
      expect((await read(response)).type).toBe(problemType('short-url-not-found'));
    }
    expect((await send('GET', '/rest/v3/short-urls/alices/visits', bob)).status).toBe(404);
    const bobsList = await read(await send('GET', '/rest/v3/short-urls', bob));
    expect(bobsList.shortUrls.data).toEqual([]);
    const adminList = await read(await send('GET', '/rest/v3/short-urls', ADMIN));
    expect(adminList.shortUrls.data.map((url: { shortCode: string }) => url.shortCode)).toEqual(['alices']);
  });
  it('names a short URL by code and domain: on another domain it is not found, and nothing is changed', async () => {
    const { create, send, alice, store } = await withShlink();
    await create(alice, { longUrl: 'https://example.com/here', customSlug: 'here' });
    const calls = [
      ['GET', '/rest/v3/short-urls/here'],
      ['GET', '/rest/v3/short-urls/here/visits'],
      ['GET', '/rest/v3/short-urls/here/redirect-rules'],
      ['PATCH', '/rest/v3/short-urls/here', { title: 'changed' }],
      ['DELETE', '/rest/v3/short-urls/here'],
    ] as const;
    for (const [method, path, body] of calls) {
      const response = await send(method, `${path}?domain=other.com`, alice, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await read(response)).toEqual({
        type: problemType('short-url-not-found'),
        title: 'Short URL not found',
        detail: 'No URL found with short code "here" for domain "other.com"',
        status: 404,
        shortCode: 'here',
        domain: 'other.com',
      });
    }
    const kept = await store.findByCodeKey('here');
    expect(kept?.code).toBe('here');
    expect(kept?.title ?? null).toBeNull();
    // This server's host (any case), DEFAULT and an empty domain are its one domain.
    for (const domain of ['sho.rt', 'SHO.RT', 'DEFAULT', '']) {
      const fetched = await send('GET', `/rest/v3/short-urls/here?domain=${domain}`, alice);
      expect(fetched.status, domain).toBe(200);
      expect((await send('GET', `/rest/v3/short-urls/here/visits?domain=${domain}`, alice)).status, domain).toBe(200);
    }
    const edited = await send('PATCH', '/rest/v3/short-urls/here?domain=sho.rt', alice, { title: 'Here' });
    expect(await read(edited)).toMatchObject({ title: 'Here' });
    expect((await send('DELETE', '/rest/v3/short-urls/here?domain=DEFAULT', alice)).status).toBe(204);
  });
});

describe('Shlink: lists, pages and orders', () => {
  it('pages, searches, filters by one tag, orders and excludes expired links', async () => {
    const { create, send, alice, app } = await withShlink();
    for (const [slug, tags] of [
      ['c-one', ['x']],
      ['a-two', ['x', 'y']],
      ['b-three', []],
    ] as const) {
      await create(alice, { longUrl: `https://example.com/${slug}`, customSlug: slug, tags });
      app.clock.advance(HOUR);
    }
    await create(alice, {
      longUrl: 'https://example.com/short-lived',
      customSlug: 'd-brief',
      title: 'Quarterly Report 분기 보고서',
      validUntil: shlinkDate(app.clock.now + HOUR),
    });
    app.clock.advance(2 * HOUR);
    const list = async (query: string) =>
      (await read(await send('GET', `/rest/v3/short-urls${query}`, alice))).shortUrls;
    const codes = (page: { data: Array<{ shortCode: string }> }) => page.data.map((url) => url.shortCode);

    const first = await list('?itemsPerPage=2');
    expect(codes(first)).toEqual(['d-brief', 'b-three']);
    expect(first.pagination).toEqual({
      currentPage: 1,
      pagesCount: 2,
      itemsPerPage: 2,
      itemsInCurrentPage: 2,
      totalItems: 4,
    });
    const second = await list('?itemsPerPage=2&page=2');
    expect(codes(second)).toEqual(['a-two', 'c-one']);
    expect(codes(await list('?orderBy=shortCode-ASC'))).toEqual(['a-two', 'b-three', 'c-one', 'd-brief']);
    expect(codes(await list('?orderBy=dateCreated-ASC'))).toEqual(['c-one', 'a-two', 'b-three', 'd-brief']);
    expect(codes(await list('?orderBy=longUrl-DESC'))).toEqual(['d-brief', 'c-one', 'b-three', 'a-two']);
    expect(codes(await list('?searchTerm=THREE'))).toEqual(['b-three']);
    // Titles are searched too, as Shlink searches them (docs/shlink.md).
    expect(codes(await list('?searchTerm=quarterly'))).toEqual(['d-brief']);
    // Hangul typed decomposed (NFD, as some systems send it) finds the title kept composed.
    expect(codes(await list(`?searchTerm=${encodeURIComponent('분기'.normalize('NFD'))}`))).toEqual(['d-brief']);
    expect(codes(await list('?tags%5B%5D=X&tagsMode=all&orderBy=shortCode-ASC'))).toEqual(['a-two', 'c-one']);
    expect(codes(await list('?excludePastValidUntil=true&excludeMaxVisitsReached=true'))).toEqual([
      'b-three',
      'a-two',
      'c-one',
    ]);
    const all = await list('?itemsPerPage=-1');
    expect(all.pagination).toMatchObject({ itemsPerPage: 1000, pagesCount: 1, totalItems: 4 });
    expect(codes(await list('?domain=DEFAULT'))).toHaveLength(4);
    expect((await list('?domain=elsewhere.example')).data).toEqual([]);

    for (const [query, field] of [
      ['?tags%5B%5D=x&tags%5B%5D=y', 'tags'],
      ['?orderBy=clicks-UP', 'orderBy'],
      ['?startDate=2026-01-01', 'startDate'],
      ['?page=0', 'page'],
    ]) {
      const refused = await send('GET', `/rest/v3/short-urls${query}`, alice);
      expect(refused.status, query).toBe(400);
      expect((await read(refused)).invalidElements, query).toEqual([field]);
    }
  });

  it('lists tags and tag stats, the one domain, and answers redirect rules and orphan visits truthfully', async () => {
    const { create, send, alice, bob } = await withShlink();
    await create(alice, { longUrl: 'https://example.com/1', tags: ['news', 'work'] });
    await create(alice, { longUrl: 'https://example.com/2', tags: ['news'], customSlug: 'two' });
    await create(bob, { longUrl: 'https://example.com/3', tags: ['bobs'] });
    const tags = await read(await send('GET', '/rest/v3/tags', alice));
    expect(tags.tags).toEqual({
      data: ['news', 'work'],
      pagination: { currentPage: 1, pagesCount: 1, itemsPerPage: 1000, itemsInCurrentPage: 2, totalItems: 2 },
    });
    const stats = await read(await send('GET', '/rest/v2/tags/stats?orderBy=shortUrlsCount-DESC', alice));
    expect(stats.tags.data).toEqual([
      { tag: 'news', shortUrlsCount: 2, visitsSummary: { total: 0, nonBots: 0, bots: 0 } },
      { tag: 'work', shortUrlsCount: 1, visitsSummary: { total: 0, nonBots: 0, bots: 0 } },
    ]);
    const noRedirects = { baseUrlRedirect: null, regular404Redirect: null, invalidShortUrlRedirect: null };
    expect(await read(await send('GET', '/rest/v3/domains', alice))).toEqual({
      domains: { data: [{ domain: 'sho.rt', isDefault: true, redirects: noRedirects }], defaultRedirects: noRedirects },
    });
    expect(await read(await send('GET', '/rest/v3/short-urls/two/redirect-rules', alice))).toEqual({
      defaultLongUrl: 'https://example.com/2',
      redirectRules: [],
    });
    expect((await send('POST', '/rest/v3/short-urls/two/redirect-rules', alice, { redirectRules: [] })).status).toBe(
      200,
    );
    const rule = await send('POST', '/rest/v3/short-urls/two/redirect-rules', alice, {
      redirectRules: [
        {
          longUrl: 'https://example.com/android',
          conditions: [{ type: 'device', matchValue: 'blackberry', matchKey: null }],
        },
      ],
    });
    const refusedRule = await read(rule);
    expect(refusedRule).toMatchObject({ status: 400, invalidElements: ['redirectRules'] });
    expect(refusedRule.detail).toBe(
      'redirectRules[0].conditions[0]: a device must be one of android, ios, mobile, desktop, windows, macos, linux, chromeos.',
    );
    // Shlink 4.4 sets rules by PATCH as by POST: the same answers, status, headers and body.
    for (const body of [{ redirectRules: [] }, { redirectRules: [{ longUrl: 'https://example.com/x' }] }, 'nope']) {
      const byPost = await send('POST', '/rest/v3/short-urls/two/redirect-rules', alice, body);
      const byPatch = await send('PATCH', '/rest/v3/short-urls/two/redirect-rules', alice, body);
      expect(byPatch.status, JSON.stringify(body)).toBe(byPost.status);
      expect(byPatch.headers.get('content-type')).toBe(byPost.headers.get('content-type'));
      expect(await byPatch.text()).toBe(await byPost.text());
    }
    const missing = await send('PATCH', '/rest/v3/short-urls/none/redirect-rules', alice, { redirectRules: [] });
    expect(await read(missing)).toMatchObject({ status: 404, type: problemType('short-url-not-found') });
    const orphan = await read(await send('GET', '/rest/v3/visits/orphan', alice));
    expect(orphan.visits).toEqual({
      data: [],
      pagination: { currentPage: 1, pagesCount: 0, itemsPerPage: 5000, itemsInCurrentPage: 0, totalItems: 0 },
    });
    expect(await read(await send('DELETE', '/rest/v3/visits/orphan', alice))).toEqual({ deletedVisits: 0 });
    const mercure = await send('GET', '/rest/v3/mercure-info', alice);
    expect(mercure.status).toBe(501);
    expect((await read(mercure)).type).toBe(problemType('mercure-not-configured'));
    const refused = await send('PATCH', '/rest/v3/domains/redirects', alice, {});
    expect(refused.status).toBe(400);
    const problem = await read(refused);
    expect(problem.type).toBe(problemType('not-supported'));
    expect(problem.detail).toMatch(/Linklet/);
  });
});

describe('Shlink: visits', () => {
  it('turns kept visits into Shlink visits, pages them, filters bots and dates; the overview adds up clicks and bots', async () => {
    const { create, send, alice, bob, app, counter } = await withShlink();
    await create(alice, { longUrl: 'https://example.com/v', customSlug: 'visited', tags: ['news'] });
    await create(bob, { longUrl: 'https://example.com/b', customSlug: 'bobs' });
    await app.fetch('/visited', {
      headers: { 'User-Agent': CHROME, Referer: 'https://news.example.org/a', 'CF-IPCountry': 'KR' },
    });
    app.clock.advance(HOUR);
    await app.fetch('/visited', { headers: { 'User-Agent': CHROME } });
    app.clock.advance(HOUR);
    await app.fetch('/visited', { headers: { 'User-Agent': GOOGLEBOT, 'CF-IPCountry': 'US' } });
    await app.fetch('/bobs', { headers: { 'User-Agent': CHROME } });
    await counter.flush();

    const visits = (await read(await send('GET', '/rest/v3/short-urls/visited/visits', alice))).visits;
    expect(visits.pagination).toEqual({
      currentPage: 1,
      pagesCount: 1,
      itemsPerPage: 5000,
      itemsInCurrentPage: 3,
      totalItems: 3,
    });
    expect(visits.data).toEqual([
      {
        referer: '',
        date: shlinkDate(START + 2 * HOUR),
        userAgent: GOOGLEBOT,
        visitLocation: {
          countryCode: 'US',
          countryName: 'United States',
          regionName: null,
          cityName: null,
          latitude: null,
          longitude: null,
          timezone: null,
          isEmpty: false,
        },
        potentialBot: true,
        visitedUrl: 'https://sho.rt/visited',
      },
      expect.objectContaining({
        referer: '',
        date: shlinkDate(START + HOUR),
        userAgent: CHROME,
        visitLocation: null,
        potentialBot: false,
      }),
      expect.objectContaining({
        referer: 'news.example.org',
        date: shlinkDate(START),
        visitLocation: expect.objectContaining({ countryCode: 'KR', countryName: 'South Korea' }),
      }),
    ]);
    const humans = (
      await read(await send('GET', '/rest/v3/short-urls/visited/visits?excludeBots=true&itemsPerPage=1&page=2', alice))
    ).visits;
    expect(humans.pagination).toEqual({
      currentPage: 2,
      pagesCount: 2,
      itemsPerPage: 1,
      itemsInCurrentPage: 1,
      totalItems: 2,
    });
    expect(humans.data[0].date).toBe(shlinkDate(START));
    // As Shlink 4.4, the parameter's presence excludes bots whatever its value, but false keeps them.
    for (const [query, total] of [
      ['excludeBots', 2],
      ['excludeBots=', 2],
      ['excludeBots=1', 2],
      ['excludeBots=TRUE', 2],
      ['excludeBots=false', 3],
      ['excludeBots=FALSE', 3],
    ] as const) {
      const answer = await send('GET', `/rest/v3/short-urls/visited/visits?${query}`, alice);
      expect(answer.status, query).toBe(200);
      expect((await read(answer)).visits.pagination.totalItems, query).toBe(total);
    }
    const across = await read(await send('GET', '/rest/v3/visits/non-orphan?excludeBots=1', alice));
    expect(across.visits.data.some((visit: { potentialBot: boolean }) => visit.potentialBot)).toBe(false);
    const since = (
      await read(
        await send(
          'GET',
          `/rest/v3/short-urls/visited/visits?startDate=${encodeURIComponent(shlinkDate(START + HOUR))}`,
          alice,
        ),
      )
    ).visits;
    expect(since.pagination.totalItems).toBe(2);

    const fetched = await read(await send('GET', '/rest/v3/short-urls/visited', alice));
    expect(fetched.visitsSummary).toEqual({ total: 3, nonBots: 2, bots: 1 });
    const listed = await read(await send('GET', '/rest/v3/short-urls?orderBy=visits-DESC', ADMIN));
    expect(listed.shortUrls.data.map((url: { shortCode: string }) => url.shortCode)).toEqual(['visited', 'bobs']);
    expect(await read(await send('GET', '/rest/v3/visits', alice))).toEqual({
      visits: { nonOrphanVisits: { total: 3, nonBots: 2, bots: 1 }, orphanVisits: { total: 0, nonBots: 0, bots: 0 } },
    });
    expect((await read(await send('GET', '/rest/v3/visits', ADMIN))).visits.nonOrphanVisits).toEqual({
      total: 4,
      nonBots: 3,
      bots: 1,
    });

    // A link only crawlers visit: more visits in all than the news tag, fewer people.
    await create(alice, { longUrl: 'https://example.com/c', customSlug: 'crawled', tags: ['crawled'] });
    for (let i = 0; i < 4; i++) await app.fetch('/crawled', { headers: { 'User-Agent': GOOGLEBOT } });
    await counter.flush();
    const tagStats = async (orderBy: string) =>
      (await read(await send('GET', `/rest/v3/tags/stats?orderBy=${orderBy}`, alice))).tags.data;
    expect(await tagStats('visits-DESC')).toEqual([
      { tag: 'crawled', shortUrlsCount: 1, visitsSummary: { total: 4, nonBots: 0, bots: 4 } },
      { tag: 'news', shortUrlsCount: 1, visitsSummary: { total: 3, nonBots: 2, bots: 1 } },
    ]);
    expect((await tagStats('nonBotVisits-DESC')).map((tag: { tag: string }) => tag.tag)).toEqual(['news', 'crawled']);
    expect((await read(await send('GET', '/rest/v3/visits', alice))).visits.nonOrphanVisits).toEqual({
      total: 7,
      nonBots: 2,
      bots: 5,
    });
  });
});

describe('Shlink: visits across links', () => {
  /** alice's `one` (news) and `two` (work), bob's `bobs` (news), visited hour by hour. */
  async function withVisitsAcrossLinks() {
    const shlink = await withShlink();
    const { create, alice, bob, app, counter } = shlink;
    await create(alice, { longUrl: 'https://example.com/1', customSlug: 'one', tags: ['news'] });
    await create(alice, { longUrl: 'https://example.com/2', customSlug: 'two', tags: ['Work'] });
    await create(bob, { longUrl: 'https://example.com/b', customSlug: 'bobs', tags: ['news'] });
    const visit = (code: string, agent = CHROME) => app.fetch(`/${code}`, { headers: { 'User-Agent': agent } });
    await visit('one');
    app.clock.advance(HOUR);
    await visit('two');
    await visit('bobs');
    app.clock.advance(HOUR);
    await visit('one', GOOGLEBOT);
    app.clock.advance(HOUR);
    // Two visits in the same second on two links: they go by visit id (the memory store's are in recorded order).
    await visit('one');
    await visit('two');
    await counter.flush();
    return shlink;
  }
  const listOf = (body: { visits: { data: Array<{ date: string; visitedUrl: string }> } }) =>
    body.visits.data.map((visit) => [visit.visitedUrl.replace('https://sho.rt/', ''), visit.date]);

  it('merges the key’s links’ visits newest first, keeps owners apart and pages them', async () => {
    const { send, alice, bob } = await withVisitsAcrossLinks();
    const all = await read(await send('GET', '/rest/v3/visits/non-orphan', alice));
    expect(listOf(all)).toEqual([
      ['two', shlinkDate(START + 3 * HOUR)],
      ['one', shlinkDate(START + 3 * HOUR)],
      ['one', shlinkDate(START + 2 * HOUR)],
      ['two', shlinkDate(START + HOUR)],
      ['one', shlinkDate(START)],
    ]);
    expect(all.visits.pagination).toEqual({
      currentPage: 1,
      pagesCount: 1,
      itemsPerPage: 5000,
      itemsInCurrentPage: 5,
      totalItems: 5,
    });
    expect(all.visits.data[2]).toMatchObject({ potentialBot: true, userAgent: GOOGLEBOT, referer: '' });
    expect(listOf(await read(await send('GET', '/rest/v3/visits/non-orphan', bob)))).toEqual([
      ['bobs', shlinkDate(START + HOUR)],
    ]);
    expect((await read(await send('GET', '/rest/v3/visits/non-orphan', ADMIN))).visits.pagination.totalItems).toBe(6);

    // Pages follow the same order, ties included, on every request.
    const pages = [];
    for (const page of [1, 2, 3]) {
      const body = await read(await send('GET', `/rest/v3/visits/non-orphan?itemsPerPage=2&page=${page}`, alice));
      expect(body.visits.pagination).toMatchObject({
        currentPage: page,
        pagesCount: 3,
        itemsPerPage: 2,
        totalItems: 5,
      });
      pages.push(...listOf(body));
    }
    expect(pages).toEqual(listOf(all));
    expect((await read(await send('GET', '/rest/v2/visits/non-orphan?page=4&itemsPerPage=2', alice))).visits).toEqual({
      data: [],
      pagination: { currentPage: 4, pagesCount: 3, itemsPerPage: 2, itemsInCurrentPage: 0, totalItems: 5 },
    });
  });

  it('filters by dates and bots, and by the one domain', async () => {
    const { send, alice } = await withVisitsAcrossLinks();
    const between = `startDate=${encodeURIComponent(shlinkDate(START + HOUR))}&endDate=${encodeURIComponent(shlinkDate(START + 2 * HOUR))}`;
    expect(listOf(await read(await send('GET', `/rest/v3/visits/non-orphan?${between}`, alice)))).toEqual([
      ['one', shlinkDate(START + 2 * HOUR)],
      ['two', shlinkDate(START + HOUR)],
    ]);
    const humans = await read(await send('GET', '/rest/v3/visits/non-orphan?excludeBots=true', alice));
    expect(humans.visits.pagination.totalItems).toBe(4);
    expect(humans.visits.data.some((visit: { potentialBot: boolean }) => visit.potentialBot)).toBe(false);
    const bad = await send('GET', '/rest/v3/visits/non-orphan?startDate=yesterday', alice);
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ type: problemType('invalid-data'), invalidElements: ['startDate'] });

    const every = listOf(await read(await send('GET', '/rest/v3/visits/non-orphan', alice)));
    for (const domain of ['DEFAULT', 'sho.rt', 'SHO.RT']) {
      const answer = await send('GET', `/rest/v3/domains/${domain}/visits`, alice);
      expect(answer.status, domain).toBe(200);
      expect(listOf(await read(answer)), domain).toEqual(every);
    }
    const elsewhere = await send('GET', '/rest/v3/domains/elsewhere.example/visits', alice);
    expect(elsewhere.status).toBe(404);
    expect(await read(elsewhere)).toMatchObject({
      type: problemType('domain-not-found'),
      title: 'Domain not found',
      status: 404,
      authority: 'elsewhere.example',
    });
    const onDomain = await read(await send('GET', '/rest/v3/visits/non-orphan?domain=DEFAULT&excludeBots=true', alice));
    expect(onDomain.visits.pagination.totalItems).toBe(4);
    const onOther = await read(await send('GET', '/rest/v3/visits/non-orphan?domain=elsewhere.example', alice));
    expect(onOther.visits).toEqual({
      data: [],
      pagination: { currentPage: 1, pagesCount: 0, itemsPerPage: 5000, itemsInCurrentPage: 0, totalItems: 0 },
    });
  });

  it('lists a tag’s visits among the key’s links; a tag none of them carries is not found', async () => {
    const { send, alice, bob } = await withVisitsAcrossLinks();
    expect(listOf(await read(await send('GET', '/rest/v3/tags/news/visits', alice)))).toEqual([
      ['one', shlinkDate(START + 3 * HOUR)],
      ['one', shlinkDate(START + 2 * HOUR)],
      ['one', shlinkDate(START)],
    ]);
    expect(listOf(await read(await send('GET', '/rest/v3/tags/news/visits', bob)))).toEqual([
      ['bobs', shlinkDate(START + HOUR)],
    ]);
    expect(listOf(await read(await send('GET', '/rest/v3/tags/WORK/visits?excludeBots=true', alice)))).toEqual([
      ['two', shlinkDate(START + 3 * HOUR)],
      ['two', shlinkDate(START + HOUR)],
    ]);
    expect((await read(await send('GET', '/rest/v3/tags/news/visits', ADMIN))).visits.pagination.totalItems).toBe(4);
    for (const tag of ['work', 'nothing', 'two%20words']) {
      const missing = await send('GET', `/rest/v3/tags/${tag}/visits`, bob);
      expect(missing.status, tag).toBe(404);
      expect(await read(missing), tag).toMatchObject({
        type: problemType('tag-not-found'),
        title: 'Tag not found',
        tag: decodeURIComponent(tag),
      });
    }
  });

  it('refuses, rather than cut short, a list past the bounds of links or visits read', async () => {
    const { send, alice } = await withVisitsAcrossLinks();
    const saved = { ...VISITS_ACROSS_LINKS_BOUNDS };
    try {
      VISITS_ACROSS_LINKS_BOUNDS.links = 1;
      const tooManyLinks = await send('GET', '/rest/v3/visits/non-orphan', alice);
      expect(tooManyLinks.status).toBe(400);
      const linksProblem = await read(tooManyLinks);
      expect(linksProblem).toMatchObject({ type: problemType('too-many-visits'), status: 400 });
      expect(linksProblem.detail).toMatch(/more than 1 short URLs.*\/short-urls\/\{shortCode\}\/visits/);
      // One link in scope is within the bound.
      expect((await send('GET', '/rest/v3/tags/news/visits', alice)).status).toBe(200);

      VISITS_ACROSS_LINKS_BOUNDS.links = saved.links;
      VISITS_ACROSS_LINKS_BOUNDS.visits = 3;
      const tooManyVisits = await send('GET', '/rest/v3/domains/DEFAULT/visits?itemsPerPage=1', alice);
      expect(tooManyVisits.status).toBe(400);
      expect((await read(tooManyVisits)).detail).toMatch(/more than 3 kept visits/);
      // Visits before startDate are not counted: the three from the third hour on fit.
      const since = encodeURIComponent(shlinkDate(START + 2 * HOUR));
      const fits = await read(await send('GET', `/rest/v3/visits/non-orphan?startDate=${since}`, alice));
      expect(fits.visits.pagination.totalItems).toBe(3);
    } finally {
      Object.assign(VISITS_ACROSS_LINKS_BOUNDS, saved);
    }
  });
});

describe('Shlink: every endpoint is served under both versions', () => {
  it('answers each endpoint of the list under /rest/v3 and /rest/v2 (never the generic 404)', async () => {
    const { send, alice, create } = await withShlink();
    await create(alice, { longUrl: 'https://example.com/x', customSlug: 'code' });
    for (const endpoint of SHLINK_ENDPOINTS) {
      for (const version of ['v2', 'v3']) {
        const path = `/rest/${version}${endpoint.path.replace('{shortCode}', 'code').replace('{tag}', 'news').replace('{domain}', 'sho.rt')}`;
        const body =
          endpoint.method === 'POST' || endpoint.method === 'PATCH' || endpoint.method === 'PUT' ? {} : undefined;
        const response = await send(endpoint.method, path, alice, body);
        const statuses = Object.keys(endpoint.responses).map(Number);
        expect(statuses, `${endpoint.method} ${path} answered ${response.status}`).toContain(response.status);
      }
    }
  });
});
