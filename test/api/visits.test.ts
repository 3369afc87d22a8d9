import { describe, expect, it } from 'vitest';
import { makeCountingHandler } from './counting-handler.js';
import { DAY, json, START } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const asKey = (key: string) => ({ 'X-API-Key': key });

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** A handler whose clicks go through the real counter and visit parser into a memory store; alice and bob own links. */
async function withVisits(retentionDays = 90) {
  const { store, counter, app } = makeCountingHandler({ apiKey: ADMIN, visitsRetentionDays: retentionDays });
  const makeKey = async (name: string) =>
    (await json(await app.post('/api/v1/keys', { name }, asKey(ADMIN)))).data as { key: string };
  const alice = (await makeKey('alice')).key;
  const bob = (await makeKey('bob')).key;
  for (const [code, key] of [
    ['promo', alice],
    ['bobs', bob],
  ] as const) {
    const made = await app.post(
      '/api/v1/shorten',
      { original_url: `https://example.com/${code}`, custom_code: code },
      asKey(key),
    );
    expect(made.status).toBe(201);
  }
  const click = (code: string, headers: Record<string, string> = {}, method = 'GET') =>
    app.fetch(`/${code}`, { method, headers });
  const get = async (path: string, key = alice) => app.fetch(path, { headers: asKey(key) });
  return { app, store, counter, alice, bob, click, get };
}

describe('visits: what a click leaves behind', () => {
  it('counts a known mix exactly: browsers, countries, referrers, DNT and GPC, bots, HEAD and prefetch', async () => {
    const { counter, click, get } = await withVisits();
    const chrome = { 'User-Agent': CHROME };
    await click('promo', { ...chrome, Referer: 'https://news.example.org/a/b?q=secret', 'CF-IPCountry': 'KR' });
    await click('promo', { ...chrome, Referer: 'https://news.example.org/other', 'CF-IPCountry': 'kr' });
    await click('promo', { 'User-Agent': IPHONE, 'CF-IPCountry': 'US' });
    await click('promo', { 'User-Agent': IPHONE, 'CF-IPCountry': 'XX', Referer: 'not a url' });
    await click('promo', { ...chrome, DNT: '1', Referer: 'https://tracked.example/', 'CF-IPCountry': 'DE' });
    await click('promo', { ...chrome, 'Sec-GPC': '1', Referer: 'https://tracked.example/', 'CF-IPCountry': 'DE' });
    await click('promo', { 'User-Agent': GOOGLEBOT, 'CF-IPCountry': 'US' });
    await click('promo', chrome, 'HEAD');
    await click('promo', { ...chrome, 'Sec-Purpose': 'prefetch' });
    await click('promo', { ...chrome, Purpose: 'prefetch' });
    await counter.flush();

    const stats = await json(await get('/api/v1/links/promo/stats'));
    expect(stats.data).toMatchObject({
      total: 6,
      bots: 1,
      referrers: [
        { name: 'direct', clicks: 2 },
        { name: 'news.example.org', clicks: 2 },
        { name: 'unknown', clicks: 2 },
      ],
      countries: [
        { name: 'KR', clicks: 2 },
        { name: 'unknown', clicks: 3 },
        { name: 'US', clicks: 1 },
      ].sort((a, b) => b.clicks - a.clicks),
      browsers: [
        { name: 'Chrome', clicks: 2 },
        { name: 'Safari', clicks: 2 },
        { name: 'unknown', clicks: 2 },
      ],
      // Ties by name, in code-unit order (capitals first), the same on every store.
      os: [
        { name: 'Windows', clicks: 2 },
        { name: 'iOS', clicks: 2 },
        { name: 'unknown', clicks: 2 },
      ],
      devices: [
        { name: 'desktop', clicks: 2 },
        { name: 'mobile', clicks: 2 },
        { name: 'unknown', clicks: 2 },
      ],
    });
    expect(stats.data.days).toHaveLength(30);
    expect(stats.data.days.at(-1)).toEqual({ day: '2026-01-31', clicks: 6 });
    expect(stats.data.days[0]).toEqual({ day: '2026-01-02', clicks: 0 });

    const visits = await json(await get('/api/v1/links/promo/visits'));
    expect(visits.data.visits).toHaveLength(7);
    expect(visits.data.next_cursor).toBeNull();
    const withheld = visits.data.visits.filter((v: { referrer: string | null }) => v.referrer === null);
    expect(withheld).toEqual([
      {
        at: new Date(START).toISOString(),
        referrer: null,
        country: null,
        browser: null,
        os: null,
        device: null,
        bot: false,
      },
      {
        at: new Date(START).toISOString(),
        referrer: null,
        country: null,
        browser: null,
        os: null,
        device: null,
        bot: false,
      },
    ]);
    // The referrer's host alone: never its path or query.
    expect(JSON.stringify(visits.data)).not.toMatch(/secret|\/a\/b/);
  });

  it('lists the top 10 biggest first, then the rest as other', async () => {
    const { counter, click, get } = await withVisits();
    for (let site = 0; site < 13; site++) {
      for (let n = 0; n <= site; n++)
        await click('promo', { Referer: `https://site${String(site).padStart(2, '0')}.example/` });
    }
    await counter.flush();
    const { data } = await json(await get('/api/v1/links/promo/stats'));
    expect(data.total).toBe(91);
    expect(data.referrers).toHaveLength(11);
    expect(data.referrers[0]).toEqual({ name: 'site12.example', clicks: 13 });
    expect(data.referrers[9]).toEqual({ name: 'site03.example', clicks: 4 });
    expect(data.referrers[10]).toEqual({ name: 'other', clicks: 1 + 2 + 3 });
  });

  it('takes a from/to range of UTC days, and says what is wrong with a bad one', async () => {
    const { app, counter, click, get } = await withVisits();
    await click('promo');
    app.clock.advance(DAY);
    await click('promo');
    await click('promo');
    await counter.flush();
    const range = await json(await get('/api/v1/links/promo/stats?from=2026-01-31&to=2026-02-01'));
    expect(range.data.days).toEqual([
      { day: '2026-01-31', clicks: 1 },
      { day: '2026-02-01', clicks: 2 },
    ]);
    expect(range.data.total).toBe(3);
    const one = await json(await get('/api/v1/links/promo/stats?from=2026-02-01&to=2026-02-01'));
    expect(one.data).toMatchObject({ total: 2, referrers: [{ name: 'direct', clicks: 2 }] });
    for (const [query, message] of [
      ['from=2026-02-30', /from must be a date written YYYY-MM-DD/],
      ['to=31-01-2026', /to must be a date written YYYY-MM-DD/],
      ['from=2026-02-01&to=2026-01-01', /from must be on or before to/],
      ['from=2000-01-01&to=2026-01-01', /at most 3660 days apart/],
    ] as const) {
      const response = await get(`/api/v1/links/promo/stats?${query}`);
      expect(response.status).toBe(400);
      expect((await json(response)).message).toMatch(message);
    }
  });

  it("answers 404 for another owner's link, 401 without a key; the administrator sees every link", async () => {
    const { alice, bob, get, app } = await withVisits();
    for (const path of ['/api/v1/links/bobs/stats', '/api/v1/links/bobs/visits', '/api/v1/links/none/stats']) {
      const response = await get(path, alice);
      expect(response.status).toBe(404);
      expect((await json(response)).message).toMatch(/among yours/);
    }
    expect((await get('/api/v1/links/bobs/stats', bob)).status).toBe(200);
    expect((await get('/api/v1/links/bobs/stats', ADMIN)).status).toBe(200);
    expect((await app.fetch('/api/v1/links/promo/stats')).status).toBe(401);
    const post = await app.fetch('/api/v1/links/promo/visits', { method: 'POST', headers: asKey(alice) });
    expect(post.status).toBe(405);
  });

  it('pages visits newest first with a signed cursor, and exports them as CSV', async () => {
    const { app, counter, click, get } = await withVisits();
    for (let i = 0; i < 5; i++) {
      await click('promo', { 'CF-IPCountry': ['KR', 'US', 'DE', 'FR', 'JP'][i] as string });
      app.clock.advance(1000);
    }
    await counter.flush();
    const first = await json(await get('/api/v1/links/promo/visits?limit=2'));
    expect(first.data.visits.map((v: { country: string }) => v.country)).toEqual(['JP', 'FR']);
    const second = await json(await get(`/api/v1/links/promo/visits?limit=2&cursor=${first.data.next_cursor}`));
    expect(second.data.visits.map((v: { country: string }) => v.country)).toEqual(['DE', 'US']);
    const third = await json(await get(`/api/v1/links/promo/visits?limit=2&cursor=${second.data.next_cursor}`));
    expect(third.data.visits.map((v: { country: string }) => v.country)).toEqual(['KR']);
    expect(third.data.next_cursor).toBeNull();
    expect((await get('/api/v1/links/promo/visits?cursor=made-up')).status).toBe(400);
    expect((await get('/api/v1/links/promo/visits?limit=0')).status).toBe(400);
    expect((await get('/api/v1/links/promo/visits?format=xml')).status).toBe(400);

    const csv = await get('/api/v1/links/promo/visits?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('at,referrer,country,browser,os,device,bot');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toBe('2026-01-31T12:00:04.000Z,direct,JP,,,,false');
  });

  it('folds visits past the retention (here 1 day) into daily counts that stats still add up', async () => {
    const { app, counter, click, get } = await withVisits(1);
    await click('promo', { 'User-Agent': CHROME, 'CF-IPCountry': 'KR', Referer: 'https://a.example/' });
    await click('promo', { 'User-Agent': GOOGLEBOT });
    await counter.flush();
    app.clock.advance(2 * DAY);
    await click('promo', { 'CF-IPCountry': 'US' }); // its batch folds the old visits
    await counter.flush();
    const visits = await json(await get('/api/v1/links/promo/visits'));
    expect(visits.data.visits.map((v: { country: string }) => v.country)).toEqual(['US']);
    const old = await json(await get('/api/v1/links/promo/stats?from=2026-01-31&to=2026-01-31'));
    expect(old.data).toMatchObject({
      bots: 1,
      referrers: [{ name: 'a.example', clicks: 1 }],
      countries: [{ name: 'KR', clicks: 1 }],
      browsers: [{ name: 'Chrome', clicks: 1 }],
      os: [{ name: 'Windows', clicks: 1 }],
      devices: [{ name: 'desktop', clicks: 1 }],
    });
  });
});
