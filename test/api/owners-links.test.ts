import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_LENGTH } from '../../core/management/links/list-params.js';
import { generateApiKey, hashApiKey } from '../../core/management/owners/api-keys.js';
import { MAX_NAME_LENGTH } from '../../core/management/owners/owner-name.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { DAY, json, makeHandler, START } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const asKey = (key: string) => ({ 'X-API-Key': key });

/** A handler with `API_KEY` set and two owners, alice and bob, each with a key. */
async function withOwners() {
  const app = makeHandler({ apiKey: ADMIN });
  const makeKey = async (name: string) =>
    (await json(await app.post('/api/v1/keys', { name }, asKey(ADMIN)))).data as { id: number; key: string };
  const alice = await makeKey('alice');
  const bob = await makeKey('bob');
  const send = (method: string, path: string, key?: string, body?: unknown) =>
    app.fetch(path, {
      method,
      headers: { ...(key ? asKey(key) : {}), 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const create = async (key: string, code: string, extra: object = {}) => {
    const response = await app.post(
      '/api/v1/shorten',
      { original_url: `https://example.com/${code}`, custom_code: code, ...extra },
      asKey(key),
    );
    expect(response.status).toBe(201);
  };
  return { app, alice, bob, send, create };
}

const codes = (body: { data: { links: Array<{ code: string }> } }) => body.data.links.map((link) => link.code);

describe('keys and who a key belongs to', () => {
  it('counts an owner name in characters, so a name of 100 emoji is taken and one of 101 is not', async () => {
    const { send } = await withOwners();
    const taken = await send('POST', '/api/v1/keys', ADMIN, { name: '🦊'.repeat(MAX_NAME_LENGTH) });
    expect(taken.status).toBe(201);
    expect((await json(taken)).data.name).toBe('🦊'.repeat(MAX_NAME_LENGTH));
    const refused = await send('POST', '/api/v1/keys', ADMIN, { name: '🦊'.repeat(MAX_NAME_LENGTH + 1) });
    expect(refused.status).toBe(400);
    expect((await json(refused)).message).toContain(`1 to ${MAX_NAME_LENGTH} characters`);
  });

  it('gives a name typed with combining marks to the owner of the same name in NFC, and counts it so', async () => {
    const { send, create } = await withOwners();
    const composed = await json(await send('POST', '/api/v1/keys', ADMIN, { name: 'José 한글' }));
    const decomposed = await send('POST', '/api/v1/keys', ADMIN, {
      name: ' Jose\u0301 \u1112\u1161\u11ab\u1100\u1173\u11af ',
    });
    expect(decomposed.status).toBe(201);
    const second = (await json(decomposed)).data as { key: string; name: string };
    expect(second.name).toBe('José 한글');
    // One owner: a link made with either key is listed by the other.
    await create(composed.data.key, 'jose-link');
    const listed = await json(await send('GET', '/api/v1/links', second.key));
    expect(codes(listed)).toEqual(['jose-link']);
    // 100 characters once composed, though 200 code points as typed.
    const long = await send('POST', '/api/v1/keys', ADMIN, { name: 'e\u0301'.repeat(MAX_NAME_LENGTH) });
    expect(long.status).toBe(201);
    expect((await json(long)).data.name).toBe('é'.repeat(MAX_NAME_LENGTH));
  });

  it('gives a key to an owner stored with a decomposed name before names were normalised', async () => {
    const store = createMemoryLinkStore();
    const app = makeHandler({ apiKey: ADMIN, store });
    const oldKey = generateApiKey();
    await store.createKey('Jose\u0301', await hashApiKey(oldKey), START);
    await app.post('/api/v1/shorten', { original_url: 'https://example.com/old', custom_code: 'old' }, asKey(oldKey));
    const made = await app.post('/api/v1/keys', { name: 'José' }, asKey(ADMIN));
    expect(made.status).toBe(201);
    const second = (await json(made)).data as { key: string; name: string };
    expect(second.name).toBe('Jose\u0301');
    expect(codes(await json(await app.fetch('/api/v1/links', { headers: asKey(second.key) })))).toEqual(['old']);
    // Once an owner has the NFC spelling too, that exact name is the one a key for it goes to.
    const exact = generateApiKey();
    await store.createKey('José', await hashApiKey(exact), START);
    const third = (await json(await app.post('/api/v1/keys', { name: 'José' }, asKey(ADMIN)))).data as { key: string };
    const thirdOwner = await json(await app.fetch('/api/v1/me', { headers: asKey(third.key) }));
    expect(thirdOwner.data.name).toBe('José');
    expect(codes(await json(await app.fetch('/api/v1/links', { headers: asKey(third.key) })))).toEqual([]);
  });

  it('counts a search in characters: 2,048 emoji are searched for, 2,049 refused', async () => {
    const { send, alice } = await withOwners();
    const search = (count: number) =>
      send('GET', `/api/v1/links?search=${encodeURIComponent('🦊'.repeat(count))}`, alice.key);
    const searched = await search(MAX_SEARCH_LENGTH);
    expect(searched.status).toBe(200);
    expect((await json(searched)).data.links).toEqual([]);
    const refused = await search(MAX_SEARCH_LENGTH + 1);
    expect(refused.status).toBe(400);
    expect((await json(refused)).message).toBe(`search must be at most ${MAX_SEARCH_LENGTH} characters.`);
  });

  it("makes a key only with the administrator's key, shows it once, and lists keys without it", async () => {
    const { app, alice, send } = await withOwners();
    expect(alice.key).toMatch(/^lk_[0-9A-Za-z]{32,}$/);
    expect((await send('POST', '/api/v1/keys', undefined, { name: 'eve' })).status).toBe(401);
    const forbidden = await send('POST', '/api/v1/keys', alice.key, { name: 'eve' });
    expect(forbidden.status).toBe(403);
    expect((await json(forbidden)).message).toMatch(/administrator's key/);
    expect((await send('POST', '/api/v1/keys', ADMIN, { name: '' })).status).toBe(400);
    const listed = await json(await send('GET', '/api/v1/keys', ADMIN));
    expect(listed.data.keys).toEqual([
      // alice's key was used (refused) on the POST above; bob's never was
      {
        id: alice.id,
        name: 'alice',
        created_at: new Date(START).toISOString(),
        last_used_at: new Date(START).toISOString(),
        revoked: false,
      },
      expect.objectContaining({ name: 'bob', last_used_at: null, revoked: false }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(alice.key);
    expect((await app.fetch('/api/v1/keys', { method: 'PUT' })).status).toBe(405);
  });

  it('tells a key its owner, refuses unknown and revoked keys with 401, and records last use', async () => {
    const { alice, send } = await withOwners();
    expect((await json(await send('GET', '/api/v1/me', alice.key))).data).toEqual({ name: 'alice', admin: false });
    expect((await json(await send('GET', '/api/v1/me', ADMIN))).data).toEqual({ name: 'admin', admin: true });
    expect((await send('GET', '/api/v1/me')).status).toBe(401);
    expect((await send('GET', '/api/v1/me', `lk_${'x'.repeat(43)}`)).status).toBe(401);
    expect((await send('GET', '/api/v1/me', 'not a key')).status).toBe(401);
    const keys = (await json(await send('GET', '/api/v1/keys', ADMIN))).data.keys;
    expect(keys[0].last_used_at).toBe(new Date(START).toISOString());
    expect((await send('DELETE', `/api/v1/keys/${alice.id}`, ADMIN)).status).toBe(200);
    const revoked = await send('GET', '/api/v1/me', alice.key);
    expect(revoked.status).toBe(401);
    expect((await json(revoked)).message).toMatch(/unknown or revoked/);
    expect((await send('DELETE', '/api/v1/keys/999', ADMIN)).status).toBe(404);
    expect((await send('DELETE', '/api/v1/keys/abc', ADMIN)).status).toBe(404);
  });

  it('answers 403 on the keys endpoints when API_KEY is not set, to an owner key made by the command', async () => {
    const store = createMemoryLinkStore();
    const key = generateApiKey();
    await store.createKey('alice', await hashApiKey(key), START);
    const app = makeHandler({ store });
    const response = await app.fetch('/api/v1/keys', { headers: asKey(key) });
    expect(response.status).toBe(403);
    expect((await json(response)).message).toMatch(/needs API_KEY to be set/);
    expect((await json(await app.fetch('/api/v1/me', { headers: asKey(key) }))).data.name).toBe('alice');
  });

  it('refuses a create with a key that is not valid, even on an open server', async () => {
    const app = makeHandler();
    const response = await app.post('/api/v1/shorten', { original_url: 'https://example.com' }, asKey('lk_nope'));
    expect(response.status).toBe(401);
    expect((await app.post('/api/v1/shorten', { original_url: 'https://example.com' })).status).toBe(201);
  });
});

describe('an owner and their links', () => {
  it("lists the caller's own links newest first; the administrator sees every link", async () => {
    const { app, alice, bob, send, create } = await withOwners();
    await create(alice.key, 'a1');
    app.clock.advance(1);
    await create(bob.key, 'b1');
    app.clock.advance(1);
    await create(alice.key, 'a2');
    app.clock.advance(1);
    await create(ADMIN, 'adm');
    expect(codes(await json(await send('GET', '/api/v1/links', alice.key)))).toEqual(['a2', 'a1']);
    expect(codes(await json(await send('GET', '/api/v1/links', bob.key)))).toEqual(['b1']);
    expect(codes(await json(await send('GET', '/api/v1/links', ADMIN)))).toEqual(['adm', 'a2', 'b1', 'a1']);
    expect((await send('GET', '/api/v1/links')).status).toBe(401);
    const [first] = (await json(await send('GET', '/api/v1/links', alice.key))).data.links;
    expect(first).toEqual({
      code: 'a2',
      short_url: 'https://sho.rt/a2/',
      original_url: 'https://example.com/a2',
      created_at: new Date(START + 2).toISOString(),
      expiration_date: new Date(START + 2 + 7 * DAY).toISOString(),
      status: 'active',
      clicks: 0,
      updated_at: new Date(START + 2).toISOString(),
      title: null,
      tags: [],
      password_protected: false,
      redirect_rules: [],
      max_visits: null,
      valid_since: null,
      forward_query: false,
    });
  });

  it('pages with next_cursor, searches and filters by status', async () => {
    const { app, alice, send, create } = await withOwners();
    for (let i = 0; i < 5; i++) {
      await create(alice.key, `page${i}`);
      app.clock.advance(1);
    }
    const first = await json(await send('GET', '/api/v1/links?limit=2', alice.key));
    expect(codes(first)).toEqual(['page4', 'page3']);
    const second = await json(await send('GET', `/api/v1/links?limit=2&cursor=${first.data.next_cursor}`, alice.key));
    expect(codes(second)).toEqual(['page2', 'page1']);
    const third = await json(await send('GET', `/api/v1/links?limit=2&cursor=${second.data.next_cursor}`, alice.key));
    expect(codes(third)).toEqual(['page0']);
    expect(third.data.next_cursor).toBeNull();
    expect(codes(await json(await send('GET', '/api/v1/links?search=PAGE3', alice.key)))).toEqual(['page3']);
    await send('PATCH', '/api/v1/links/page1', alice.key, { disabled: true });
    expect(codes(await json(await send('GET', '/api/v1/links?status=disabled', alice.key)))).toEqual(['page1']);
    expect(codes(await json(await send('GET', '/api/v1/links?status=expired', alice.key)))).toEqual([]);
  });

  it.each([
    ['limit=0', /^limit /],
    ['limit=101', /^limit /],
    ['limit=ten', /^limit /],
    ['status=gone', /^status /],
    ['cursor=abc', /^cursor /],
    ['changed_since=yesterday', /^changed_since /],
    ['changed_since=2020-01-01T00:00:00Z', /^changed_since .*30 days/],
    // A day February does not have is refused, not rolled over to 2 March.
    ['changed_since=2026-02-30T00:00:00.000Z', /^changed_since must be an ISO 8601 date/],
    [`changed_since=${new Date(START).toISOString()}&search=a`, /^changed_since /],
  ])('answers 400 naming the parameter for %s', async (query, message) => {
    const { alice, send } = await withOwners();
    const response = await send('GET', `/api/v1/links?${query}`, alice.key);
    expect(response.status).toBe(400);
    expect((await json(response)).message).toMatch(message);
  });

  it('refuses a cursor that was changed, or made for the other kind of listing', async () => {
    const { app, alice, send, create } = await withOwners();
    for (const code of ['c1', 'c2', 'c3']) {
      await create(alice.key, code);
      app.clock.advance(1);
    }
    const cursor = (await json(await send('GET', '/api/v1/links?limit=1', alice.key))).data.next_cursor as string;
    const [payload, signature] = cursor.split('.') as [string, string];
    const forged = `${btoa(JSON.stringify(['list', START + 99, 'zzz'])).replace(/=+$/, '')}.${signature}`;
    expect(payload.length).toBeGreaterThan(0);
    expect((await send('GET', `/api/v1/links?cursor=${forged}`, alice.key)).status).toBe(400);
    const since = `changed_since=${new Date(START).toISOString()}`;
    expect((await send('GET', `/api/v1/links?${since}&cursor=${cursor}`, alice.key)).status).toBe(400);
  });

  it("shows one link, and answers 404 alike for a missing link and for another owner's", async () => {
    const { alice, bob, send, create } = await withOwners();
    await create(alice.key, '한글');
    const found = await send('GET', `/api/v1/links/${encodeURIComponent('한글')}`, alice.key);
    expect((await json(found)).data.code).toBe('한글');
    const theirs = await send('GET', '/api/v1/links/%ED%95%9C%EA%B8%80', bob.key);
    const missing = await send('GET', '/api/v1/links/%ED%95%9C%EA%B8%80', bob.key);
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).toBe(await missing.text());
    const none = await send('GET', '/api/v1/links/%ED%95%9C%EA%B9%80', bob.key);
    expect(none.status).toBe(404);
    expect((await none.json()).message).toBe(`There is no link with the code '${'한김'}' among yours.`);
  });

  it('re-targets and disables a link; its short URL follows; an expired link cannot change', async () => {
    const { app, alice, send, create } = await withOwners();
    await create(alice.key, 'move', { expire_duration: '24h' });
    const moved = await send('PATCH', '/api/v1/links/move', alice.key, { original_url: 'https://new.example/x' });
    expect(moved.status).toBe(200);
    expect((await json(moved)).data).toMatchObject({ original_url: 'https://new.example/x', status: 'active' });
    expect((await app.fetch('/move')).headers.get('location')).toBe('https://new.example/x');
    await send('PATCH', '/api/v1/links/move', alice.key, { disabled: true });
    const disabled = await app.fetch('/move');
    expect(disabled.status).toBe(410);
    expect((await disabled.json()).message).toBe('This short link was disabled by its owner.');
    const page = await app.fetch('/move', { headers: { Accept: 'text/html' } });
    expect(await page.text()).toContain('This link was turned off by its owner');
    await send('PATCH', '/api/v1/links/move', alice.key, { disabled: false });
    expect((await app.fetch('/move')).status).toBe(302);
    app.clock.advance(DAY);
    expect((await send('PATCH', '/api/v1/links/move', alice.key, { disabled: true })).status).toBe(410);
  });

  it.each([
    [{}, /^Send original_url/],
    [{ colour: 'red' }, /^Send original_url/],
    [{ disabled: 'yes' }, /^disabled must be true or false/],
    [{ original_url: 5 }, /^original_url must be a string/],
    [{ original_url: 'javascript:alert(1)' }, /^original_url /],
    ['[1]', /JSON object/],
    ['{', /not valid JSON/],
  ])('answers 400 to the patch %j', async (body, message) => {
    const { alice, send, create } = await withOwners();
    await create(alice.key, 'p');
    const response = await send('PATCH', '/api/v1/links/p', alice.key, body);
    expect(response.status).toBe(400);
    expect((await json(response)).message).toMatch(message);
  });

  it('deletes a link: its short URL is 404, its code free, and changed_since lists the deletion', async () => {
    const { app, alice, send, create } = await withOwners();
    await create(alice.key, 'gone');
    app.clock.advance(1000);
    const since = new Date(app.clock.now).toISOString();
    app.clock.advance(1000);
    expect((await send('DELETE', '/api/v1/links/gone', alice.key)).status).toBe(200);
    expect((await send('DELETE', '/api/v1/links/gone', alice.key)).status).toBe(404);
    expect((await app.fetch('/gone')).status).toBe(404);
    const changes = await json(await send('GET', `/api/v1/links?changed_since=${since}`, alice.key));
    expect(changes.data.links).toEqual([
      { code: 'gone', deleted: true, updated_at: new Date(app.clock.now).toISOString() },
    ]);
    await create(alice.key, 'gone');
  });
});
