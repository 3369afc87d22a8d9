import { describe, expect, it } from 'vitest';
import { makeCountingHandler } from './counting-handler.js';

const ADMIN = 'admin-key-0123456789';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const read = async (response: Response) => JSON.parse(await response.text());
const problemType = (name: string) => `https://shlink.io/api/error/${name}`;

/** A server-like handler with alice's and bob's keys and tagged short URLs made through Shlink's API. */
async function withShlinkLinks() {
  const { counter, app } = makeCountingHandler({ apiKey: ADMIN });
  const makeKey = async (name: string) =>
    (await read(await app.post('/api/v1/keys', { name }, { 'X-API-Key': ADMIN }))).data.key as string;
  const alice = await makeKey('alice');
  const bob = await makeKey('bob');
  const send = (method: string, path: string, key: string, body?: unknown) =>
    app.fetch(path, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  for (const [key, slug, tags] of [
    [alice, 'one', ['news', 'work']],
    [alice, 'two', ['work', 'Dev']],
    [bob, 'bobs', ['work']],
  ] as const) {
    const made = await send('POST', '/rest/v3/short-urls', key, {
      longUrl: `https://example.com/${slug}`,
      customSlug: slug,
      tags,
    });
    expect(made.status).toBe(200);
  }
  const tagsOf = async (key: string, slug: string) =>
    (await read(await send('GET', `/rest/v3/short-urls/${slug}`, key))).tags;
  return { app, counter, alice, bob, send, tagsOf };
}

describe('Shlink: renaming and deleting tags', () => {
  it("renames a tag on the key's short URLs (PUT /tags, 204), merging into a name a link has", async () => {
    const { alice, bob, send, tagsOf } = await withShlinkLinks();
    const renamed = await send('PUT', '/rest/v3/tags', alice, { oldName: 'work', newName: 'Job' });
    expect(renamed.status).toBe(204);
    expect(await renamed.text()).toBe('');
    expect(await tagsOf(alice, 'one')).toEqual(['news', 'job']);
    expect(await tagsOf(alice, 'two')).toEqual(['job', 'dev']);
    expect(await tagsOf(bob, 'bobs')).toEqual(['work']);
    expect((await send('PUT', '/rest/v2/tags', alice, { oldName: 'news', newName: 'job' })).status).toBe(204);
    expect(await tagsOf(alice, 'one')).toEqual(['job']);
    const list = await read(await send('GET', '/rest/v3/tags', alice));
    expect(list.tags.data).toEqual(['dev', 'job']);
  });

  it('answers tag-not-found for a tag none of the key’s links has, and invalid-data for a bad name', async () => {
    const { bob, alice, send } = await withShlinkLinks();
    const missing = await send('PUT', '/rest/v3/tags', bob, { oldName: 'news', newName: 'x' });
    expect(missing.status).toBe(404);
    expect(await read(missing)).toEqual({
      type: problemType('tag-not-found'),
      title: 'Tag not found',
      detail: 'Tag with name "news" could not be found',
      status: 404,
      tag: 'news',
    });
    for (const [body, field] of [
      [{ oldName: 'work', newName: 'two words' }, 'newName'],
      [{ oldName: 'work' }, 'newName'],
      [{ newName: 'x' }, 'oldName'],
    ] as const) {
      const refused = await read(await send('PUT', '/rest/v3/tags', alice, body));
      expect(refused, field).toMatchObject({
        status: 400,
        type: problemType('invalid-data'),
        invalidElements: [field],
      });
    }
  });

  it("deletes tags from the key's short URLs alone (DELETE /tags?tags[]=, 204), unknown ones being nothing", async () => {
    const { alice, bob, send, tagsOf } = await withShlinkLinks();
    const deleted = await send('DELETE', '/rest/v3/tags?tags%5B%5D=work&tags%5B%5D=DEV&tags%5B%5D=nothing', alice);
    expect(deleted.status).toBe(204);
    expect(await tagsOf(alice, 'one')).toEqual(['news']);
    expect(await tagsOf(alice, 'two')).toEqual([]);
    expect(await tagsOf(bob, 'bobs')).toEqual(['work']);
    expect((await send('DELETE', '/rest/v3/tags', alice)).status).toBe(204);
  });
});

describe('Shlink: deleting the visits of a short URL', () => {
  it('deletes its visits and counts and answers deletedVisits, people’s and bots’', async () => {
    const { app, counter, alice, bob, send } = await withShlinkLinks();
    for (const userAgent of [CHROME, CHROME, GOOGLEBOT])
      await app.fetch('/one', { headers: { 'User-Agent': userAgent } });
    await app.fetch('/two', { headers: { 'User-Agent': CHROME } });
    await counter.flush();
    expect((await read(await send('GET', '/rest/v3/short-urls/one', alice))).visitsSummary).toEqual({
      total: 3,
      nonBots: 2,
      bots: 1,
    });
    const other = await send('DELETE', '/rest/v3/short-urls/one/visits', bob);
    expect(await read(other)).toMatchObject({ status: 404, type: problemType('short-url-not-found') });
    const deleted = await send('DELETE', '/rest/v3/short-urls/one/visits', alice);
    expect(deleted.status).toBe(200);
    expect(await read(deleted)).toEqual({ deletedVisits: 3 });
    expect((await read(await send('GET', '/rest/v3/short-urls/one', alice))).visitsSummary).toEqual({
      total: 0,
      nonBots: 0,
      bots: 0,
    });
    expect((await read(await send('GET', '/rest/v3/short-urls/one/visits', alice))).visits.data).toEqual([]);
    expect((await read(await send('GET', '/rest/v3/short-urls/two', alice))).visitsSummary.total).toBe(1);
    expect(await read(await send('DELETE', '/rest/v3/short-urls/one/visits', alice))).toEqual({ deletedVisits: 0 });
  });
});

describe('Shlink: limits and rules on a short URL', () => {
  it('makes a short URL with maxVisits, validSince and forwardQuery and shows them', async () => {
    const { alice, send } = await withShlinkLinks();
    const made = await read(
      await send('POST', '/rest/v3/short-urls', alice, {
        longUrl: 'https://example.com/limited',
        customSlug: 'limited',
        maxVisits: 10,
        validSince: '2026-02-01T00:00:00+00:00',
        forwardQuery: true,
      }),
    );
    expect(made.meta).toMatchObject({ validSince: '2026-02-01T00:00:00+00:00', maxVisits: 10 });
    expect(made.forwardQuery).toBe(true);
    expect(made.hasRedirectRules).toBe(false);
    const fetched = await read(await send('GET', '/rest/v3/short-urls/limited', alice));
    expect(fetched.meta).toEqual(made.meta);
  });

  it('checks redirect rules before it sets them, and refuses another owner’s link', async () => {
    const { alice, bob, send } = await withShlinkLinks();
    const valid = {
      redirectRules: [
        {
          longUrl: 'https://example.com/android',
          conditions: [{ type: 'device', matchKey: null, matchValue: 'android' }],
        },
      ],
    };
    expect((await send('POST', '/rest/v3/short-urls/one/redirect-rules', alice, valid)).status).toBe(200);
    const other = await send('POST', '/rest/v3/short-urls/one/redirect-rules', bob, valid);
    expect(await read(other)).toMatchObject({ status: 404, type: problemType('short-url-not-found') });
    const cleared = await read(
      await send('PATCH', '/rest/v3/short-urls/one/redirect-rules', alice, { redirectRules: [] }),
    );
    expect(cleared).toEqual({ defaultLongUrl: 'https://example.com/one', redirectRules: [] });
    const refused = await read(
      await send('POST', '/rest/v3/short-urls/one/redirect-rules', alice, {
        redirectRules: [{ longUrl: 'https://example.com/x', conditions: [{ type: 'ip-address', matchValue: 'nope' }] }],
      }),
    );
    expect(refused).toMatchObject({
      status: 400,
      type: problemType('invalid-data'),
      invalidElements: ['redirectRules'],
    });
    expect(refused.detail).toMatch(/^redirectRules\[0\]\.conditions\[0\]: matchValue must be an IP address/);
  });
});

describe('Shlink: rules and limits kept and followed', () => {
  it('keeps the rules set, lists them in Shlink’s shape, and says the short URL has them', async () => {
    const { alice, send } = await withShlinkLinks();
    const rules = {
      redirectRules: [
        {
          longUrl: 'https://example.com/ko',
          conditions: [
            { type: 'language', matchKey: null, matchValue: 'ko' },
            { type: 'query-param', matchKey: 'utm_source', matchValue: 'mail' },
          ],
        },
        { longUrl: 'https://example.com/ios', conditions: [{ type: 'device', matchKey: null, matchValue: 'ios' }] },
      ],
    };
    const expected = {
      defaultLongUrl: 'https://example.com/one',
      redirectRules: [
        { longUrl: 'https://example.com/ko', priority: 1, conditions: rules.redirectRules[0]?.conditions },
        {
          longUrl: 'https://example.com/ios',
          priority: 2,
          conditions: [{ type: 'device', matchKey: null, matchValue: 'ios' }],
        },
      ],
    };
    expect(await read(await send('POST', '/rest/v3/short-urls/one/redirect-rules', alice, rules))).toEqual(expected);
    expect(await read(await send('GET', '/rest/v3/short-urls/one/redirect-rules', alice))).toEqual(expected);
    expect((await read(await send('GET', '/rest/v3/short-urls/one', alice))).hasRedirectRules).toBe(true);
    await send('PATCH', '/rest/v3/short-urls/one/redirect-rules', alice, { redirectRules: [] });
    expect((await read(await send('GET', '/rest/v3/short-urls/one', alice))).hasRedirectRules).toBe(false);
  });

  it('edits maxVisits, validSince and forwardQuery, and a visitor is sent as they say', async () => {
    const { app, alice, send } = await withShlinkLinks();
    const edited = await read(
      await send('PATCH', '/rest/v3/short-urls/two', alice, {
        maxVisits: 2,
        validSince: new Date(app.clock.now + 3_600_000).toISOString(),
        forwardQuery: true,
      }),
    );
    expect(edited.meta.maxVisits).toBe(2);
    expect(edited.meta.validSince).toBe(`${new Date(app.clock.now + 3_600_000).toISOString().slice(0, 19)}+00:00`);
    expect(edited.forwardQuery).toBe(true);
    const go = (query = '') => app.fetch(`/two${query}`, { headers: { 'User-Agent': CHROME } });
    expect((await go()).status).toBe(410); // not valid yet
    app.clock.advance(3_600_000);
    const forwarded = await go('?ref=mail');
    expect([forwarded.status, forwarded.headers.get('location')]).toEqual([302, 'https://example.com/two?ref=mail']);
    expect((await go()).status).toBe(302);
    expect((await go()).status).toBe(410); // two visits were allowed
    const cleared = await read(
      await send('PATCH', '/rest/v3/short-urls/two', alice, { maxVisits: null, validSince: null, forwardQuery: false }),
    );
    expect([cleared.meta.maxVisits, cleared.meta.validSince, cleared.forwardQuery]).toEqual([null, null, false]);
    expect((await go()).status).toBe(302);
  });
});
