import { describe, expect, it } from 'vitest';
import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createClickCounter } from '../../server/clicks/click-counter.js';
import { withVisitRows } from '../../server/clicks/encoded-visits.js';
import { createVisitParser } from '../../server/clicks/visit-parser.js';
import { withVisitsDeletedAfterWrites } from '../../server/clicks/visits-deleted-after-writes.js';
import { json, makeHandler, START } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const asKey = (key: string) => ({ 'X-API-Key': key });
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const quiet = { info() {}, warn() {}, error() {} };

/**
 * A server-like handler: clicks through the real counter (which holds visits back for a fuller
 * row, as under load: `writeVisitsBelow: 0`) into a memory store, and the store handed to the
 * handler as the server hands it (`withVisitsDeletedAfterWrites`). Alice owns `promo` and `other`.
 */
async function withCountedClicks() {
  const store = createMemoryLinkStore() as ManagedLinkStore;
  let app: ReturnType<typeof makeHandler> | undefined;
  const counter = createClickCounter({
    write: (batch) => store.addClicks(withVisitRows(batch)),
    logger: quiet,
    writeEveryMs: 3_600_000,
    parseVisit: createVisitParser(),
    holdVisitsMs: 3_600_000,
    writeVisitsBelow: 0,
    now: () => app?.clock.now ?? START,
  });
  app = makeHandler({
    apiKey: ADMIN,
    store: withVisitsDeletedAfterWrites(store, counter.flushAll),
    onClick: counter.count,
    visits: {},
  });
  const alice = ((await json(await app.post('/api/v1/keys', { name: 'alice' }, asKey(ADMIN)))).data as { key: string })
    .key;
  const bob = ((await json(await app.post('/api/v1/keys', { name: 'bob' }, asKey(ADMIN)))).data as { key: string }).key;
  for (const code of ['promo', 'other']) {
    const made = await app.post(
      '/api/v1/shorten',
      { original_url: `https://example.com/${code}`, custom_code: code },
      asKey(alice),
    );
    expect(made.status).toBe(201);
  }
  const click = (code: string, userAgent = CHROME) => app.fetch(`/${code}`, { headers: { 'User-Agent': userAgent } });
  const get = async (path: string, key = alice) => json(await app.fetch(path, { headers: asKey(key) }));
  const remove = (code: string, key = alice) =>
    app.fetch(`/api/v1/links/${code}/visits`, { method: 'DELETE', headers: asKey(key) });
  return { app, counter, alice, bob, click, get, remove };
}

describe('visits: an owner deletes a link’s visits and counts', () => {
  it('deletes clicks, days, bot visits and kept visits, says how many, and leaves other links alone', async () => {
    const { counter, click, get, remove } = await withCountedClicks();
    await click('promo');
    await click('promo');
    await click('promo', GOOGLEBOT);
    await click('other');
    await counter.flush();
    expect((await get('/api/v1/links/promo')).data.clicks).toBe(2);

    const deleted = await remove('promo');
    expect(deleted.status).toBe(200);
    const body = await json(deleted);
    expect(body.data).toEqual({ deleted_visits: 3 });
    expect(body.message).toBe("3 visits and the link's click counts were deleted.");

    const link = (await get('/api/v1/links/promo')).data;
    expect(link.clicks).toBe(0);
    expect(link.clicks_by_day.every((day: { clicks: number }) => day.clicks === 0)).toBe(true);
    expect((await get('/api/v1/links/promo/visits')).data.visits).toEqual([]);
    expect((await get('/api/v1/links/promo/stats')).data).toMatchObject({ total: 0, bots: 0, referrers: [] });
    expect((await get('/api/v1/links/other')).data.clicks).toBe(1);
    // The link stays and counts again from zero.
    await click('promo');
    await counter.flush();
    expect((await get('/api/v1/links/promo')).data.clicks).toBe(1);
  });

  it('writes what this server counted first, visits held for a fuller row too, so none comes back after', async () => {
    const { counter, click, get, remove } = await withCountedClicks();
    await click('promo');
    await click('promo');
    await counter.flush(); // the clicks are written; their visits are held back
    expect((await get('/api/v1/links/promo')).data.clicks).toBe(2);
    expect((await get('/api/v1/links/promo/visits')).data.visits).toEqual([]);
    await click('promo'); // counted, not written at all yet
    expect((await json(await remove('promo'))).data).toEqual({ deleted_visits: 3 });
    await counter.flush();
    expect(counter.pending).toBe(0);
    expect((await get('/api/v1/links/promo')).data.clicks).toBe(0);
    expect((await get('/api/v1/links/promo/visits')).data.visits).toEqual([]);
  });

  it("answers 404 for another owner's link and an unknown code, 401 without a key, 405 with the methods", async () => {
    const { app, counter, click, get, remove, bob } = await withCountedClicks();
    await click('promo');
    await counter.flush();
    const refused = await remove('promo', bob);
    expect(refused.status).toBe(404);
    expect((await json(refused)).message).toBe("There is no link with the code 'promo' among yours.");
    expect((await remove('nobody')).status).toBe(404);
    expect((await app.fetch('/api/v1/links/promo/visits', { method: 'DELETE' })).status).toBe(401);
    const put = await app.fetch('/api/v1/links/promo/visits', { method: 'PUT', headers: asKey(ADMIN) });
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toContain('DELETE');
    expect((await get('/api/v1/links/promo')).data.clicks).toBe(1);
    // The administrator deletes any link's.
    expect((await json(await remove('promo', ADMIN))).data).toEqual({ deleted_visits: 1 });
  });
});
