import { describe, expect, it } from 'vitest';
import { DAY, json, makeHandler, START } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const asKey = (key: string) => ({ 'X-API-Key': key, 'Content-Type': 'application/json' });

/** A handler with `API_KEY` set and one owner, alice, with a key; helpers that send as her. */
async function withAlice() {
  const app = makeHandler({ apiKey: ADMIN });
  const made = await json(await app.post('/api/v1/keys', { name: 'alice' }, asKey(ADMIN)));
  const key = made.data.key as string;
  const send = (method: string, path: string, body?: unknown) =>
    app.fetch(path, { method, headers: asKey(key), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const create = (code: string, extra: object = {}) =>
    app.post(
      '/api/v1/shorten',
      { original_url: `https://example.com/${code}`, custom_code: code, ...extra },
      asKey(key),
    );
  const view = async (code: string) => (await json(await send('GET', `/api/v1/links/${code}`))).data;
  return { app, key, send, create, view };
}

describe('titles and tags on a v1 create', () => {
  it('keeps them, answers them, and lower-cases tags once each', async () => {
    const { create, view } = await withAlice();
    const made = await create('t1', { title: '  분기 보고서 Q1 ', tags: ['Work', '한글', 'work', 'a_b-1'] });
    expect(made.status).toBe(201);
    const body = await json(made);
    expect(body.data).toMatchObject({ code: 't1', title: '분기 보고서 Q1', tags: ['work', '한글', 'a_b-1'] });
    expect(await view('t1')).toMatchObject({ title: '분기 보고서 Q1', tags: ['work', '한글', 'a_b-1'] });
    const plain = await json(await create('t2', { title: '', tags: null }));
    expect(Object.keys(plain.data).sort()).toEqual(['code', 'expiration_date', 'original_url', 'short_url']);
    expect(await view('t2')).toMatchObject({ title: null, tags: [] });
    const blank = await create('t3', { title: null, tags: '' });
    expect(blank.status).toBe(201);
    expect(Object.keys((await json(blank)).data).sort()).toEqual([
      'code',
      'expiration_date',
      'original_url',
      'short_url',
    ]);
    expect(await view('t3')).toMatchObject({ title: null, tags: [] });
  });

  it('counts a title in characters (code points), so 200 emoji fit and 201 are refused as 201', async () => {
    const { create, send, view } = await withAlice();
    expect((await create('e1', { title: '😀'.repeat(200) })).status).toBe(201);
    expect((await view('e1')).title).toBe('😀'.repeat(200));
    const refused = await create('e2', { title: '😀'.repeat(201) });
    expect(refused.status).toBe(400);
    expect((await json(refused)).message).toMatch(/^title must be at most 200 characters; this one has 201\./);
    expect((await send('PATCH', '/api/v1/links/e1', { title: `한${'😀'.repeat(199)}` })).status).toBe(200);
    const patched = await send('PATCH', '/api/v1/links/e1', { title: '😀'.repeat(201) });
    expect((await json(patched)).message).toMatch(/this one has 201\./);
  });

  it.each([
    [{ title: 'x'.repeat(201) }, /^title must be at most 200 characters; this one has 201\./],
    [{ title: 7 }, /^title must be a string/],
    [{ tags: 'work' }, /^tags must be a list/],
    [{ tags: [1] }, /^Each tag must be a string/],
    [{ tags: ['two words'] }, /^The tag "two words" is not allowed: each tag is 1 to 32 letters/],
    [{ tags: ['a'.repeat(33)] }, /is not allowed/],
    [{ tags: [''] }, /is not allowed/],
    [
      { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
      /^A link can have at most 10 tags; this request has 11\./,
    ],
  ])('refuses %j with a 400 that says the rule', async (extra, message) => {
    const { create } = await withAlice();
    const refused = await create('bad', extra);
    expect(refused.status).toBe(400);
    expect((await json(refused)).message).toMatch(message);
  });

  it('leaves the legacy /api.php exactly as it was: title and tags are neither read nor answered', async () => {
    const { app } = await withAlice();
    const body = { original_url: 'https://example.com/l', custom_code: 'legacy1', title: 'x'.repeat(500), tags: 'bad' };
    const answer = await app.post('/api.php', body, { 'X-API-Key': ADMIN });
    expect(answer.status).toBe(200);
    const legacy = await json(answer);
    expect(Object.keys(legacy.data).sort()).toEqual(['code', 'expiration_date', 'original_url', 'short_url']);
    const listed = await app.fetch('/api/v1/links/legacy1', { headers: { 'X-API-Key': ADMIN } });
    expect((await json(listed)).data).toMatchObject({ title: null, tags: [] });
  });
});

describe('PATCH with title, tags and expire_duration', () => {
  it('sets, replaces and clears the title and the tag list', async () => {
    const { create, send, view } = await withAlice();
    await create('p1', { title: 'Old', tags: ['a'] });
    expect((await send('PATCH', '/api/v1/links/p1', { title: 'New', tags: ['B', 'c'] })).status).toBe(200);
    expect(await view('p1')).toMatchObject({ title: 'New', tags: ['b', 'c'] });
    expect((await send('PATCH', '/api/v1/links/p1', { tags: [] })).status).toBe(200);
    expect(await view('p1')).toMatchObject({ title: 'New', tags: [] });
    const cleared = await json(await send('PATCH', '/api/v1/links/p1', { title: null }));
    expect(cleared.data).toMatchObject({ title: null, tags: [] });
  });

  it('renews: the expiry becomes now plus the duration, and an expired link is active again', async () => {
    const { app, create, send, view } = await withAlice();
    await create('r1', { expire_duration: '24h' });
    app.clock.advance(2 * DAY);
    expect((await app.fetch('/r1')).status).toBe(410);
    const refused = await send('PATCH', '/api/v1/links/r1', { title: 'x' });
    expect(refused.status).toBe(410);
    expect((await json(refused)).message).toMatch(/renew it first with expire_duration/);
    const renewed = await send('PATCH', '/api/v1/links/r1', { expire_duration: '1week' });
    expect(renewed.status).toBe(200);
    expect((await json(renewed)).data).toMatchObject({
      status: 'active',
      expiration_date: new Date(START + 2 * DAY + 7 * DAY).toISOString(),
    });
    expect((await app.fetch('/r1')).status).toBe(302);
    expect((await view('r1')).status).toBe('active');
  });

  it('renews a disabled link without enabling it', async () => {
    const { app, create, send } = await withAlice();
    await create('d1', { expire_duration: '24h' });
    await send('PATCH', '/api/v1/links/d1', { disabled: true });
    app.clock.advance(2 * DAY);
    const renewed = await json(await send('PATCH', '/api/v1/links/d1', { expire_duration: '48h' }));
    expect(renewed.data.status).toBe('disabled');
    expect((await app.fetch('/d1')).status).toBe(410);
  });

  it.each([
    [{ expire_duration: '2weeks' }, /^expire_duration must be one of 24h, 48h, 1week, 1month/],
    [{ expire_duration: null }, /^expire_duration must be one of/],
    [{ tags: ['no spaces please'] }, /is not allowed/],
    [{ tags: '' }, /^tags must be a list/],
    [{ title: ['x'] }, /^title must be a string/],
    [{}, /title, tags or expire_duration/],
  ])('refuses the patch %j with a 400', async (patch, message) => {
    const { create, send } = await withAlice();
    await create('v1');
    const refused = await send('PATCH', '/api/v1/links/v1', patch);
    expect(refused.status).toBe(400);
    expect((await json(refused)).message).toMatch(message);
  });
});

describe('tag listing and the tags endpoint', () => {
  it('filters by tag (any case), searches titles, and counts tags with their clicks', async () => {
    const { app, create, send } = await withAlice();
    await create('k1', { title: 'Team Handbook', tags: ['work'] });
    await create('k2', { tags: ['Work', 'home'] });
    await create('k3');
    const codes = async (query: string) =>
      (await json(await send('GET', `/api/v1/links?${query}`))).data.links.map((link: { code: string }) => link.code);
    expect((await codes('tag=WORK')).sort()).toEqual(['k1', 'k2']);
    expect(await codes('tag=home')).toEqual(['k2']);
    expect(await codes('search=handbook')).toEqual(['k1']);
    await create('k4', { title: '분기 보고서' });
    // Decomposed Hangul (NFD, as some keyboards and file names give it) finds the stored NFC.
    expect(await codes(`search=${encodeURIComponent('보고서'.normalize('NFD'))}`)).toEqual(['k4']);
    const bad = await send('GET', '/api/v1/links?tag=a%20b');
    expect(bad.status).toBe(400);
    expect((await json(bad)).message).toMatch(/^tag must be one tag/);
    const since = await send('GET', `/api/v1/links?tag=work&changed_since=${new Date(START).toISOString()}`);
    expect(since.status).toBe(400);
    const tags = await json(await send('GET', '/api/v1/tags'));
    expect(tags.status).toBe('success');
    expect(tags.data.tags).toEqual([
      { tag: 'home', links: 1, clicks: 0 },
      { tag: 'work', links: 2, clicks: 0 },
    ]);
    expect((await app.fetch('/api/v1/tags')).status).toBe(401);
    expect((await send('POST', '/api/v1/tags', {})).status).toBe(405);
  });
});
