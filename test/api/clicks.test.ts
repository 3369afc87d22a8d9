import { describe, expect, it } from 'vitest';
import { dayOf } from '../../core/rules/clicks.js';
import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import { DAY, json, makeHandler, START } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';

/** A handler that records each click it reports, with links `live`, `soon` (expires in an hour) and `off` (disabled). */
async function withClicks() {
  const clicks: Array<[string, number]> = [];
  const app = makeHandler({ apiKey: ADMIN, onClick: (codeKey, at) => clicks.push([codeKey, at]) });
  for (const [code, expire] of [
    ['Live', '1week'],
    ['soon', '24h'],
    ['off', '1week'],
  ]) {
    const made = await app.post(
      '/api/v1/shorten',
      { original_url: `https://example.com/${code}`, custom_code: code, expire_duration: expire },
      { 'X-API-Key': ADMIN },
    );
    expect(made.status).toBe(201);
  }
  const disabled = await app.fetch('/api/v1/links/off', {
    method: 'PATCH',
    headers: { 'X-API-Key': ADMIN },
    body: JSON.stringify({ disabled: true }),
  });
  expect(disabled.status).toBe(200);
  return { app, clicks };
}

describe('what counts as a click (through the handler)', () => {
  it('a GET of an active link answered 302 counts once, with or without the trailing slash', async () => {
    const { app, clicks } = await withClicks();
    expect((await app.fetch('/live')).status).toBe(302);
    expect((await app.fetch('/LIVE/?utm=x')).status).toBe(302);
    expect(clicks).toEqual([
      ['live', START],
      ['live', START],
    ]);
  });

  it('HEAD, 404, 410 (expired or disabled) and prefetches do not count', async () => {
    const { app, clicks } = await withClicks();
    expect((await app.fetch('/live', { method: 'HEAD' })).status).toBe(302);
    expect((await app.fetch('/missing')).status).toBe(404);
    expect((await app.fetch('/off')).status).toBe(410);
    const prefetches: Array<Record<string, string>> = [
      { 'Sec-Purpose': 'prefetch' },
      { 'Sec-Purpose': 'prefetch;prerender' },
      { Purpose: 'prefetch' },
      { 'X-Moz': 'prefetch', Purpose: 'Prefetch' },
    ];
    for (const headers of prefetches) {
      expect((await app.fetch('/live', { headers })).status).toBe(302);
    }
    app.clock.advance(DAY);
    expect((await app.fetch('/soon')).status).toBe(410);
    expect(clicks).toEqual([]);
  });
});

describe('clicks in the management API', () => {
  it('lists totals and shows the last 30 UTC days of a link, oldest first, missing days as 0', async () => {
    const { app } = await withClicks();
    const store = app.store as ManagedLinkStore;
    const today = dayOf(START);
    await store.addClicks({ day: today, codeKeys: ['live', 'soon'], counts: [5, 1] });
    await store.addClicks({ day: today - 29, codeKeys: ['live'], counts: [2] });
    await store.addClicks({ day: today - 30, codeKeys: ['live'], counts: [100] }); // older than shown
    const listed = await json(await app.fetch('/api/v1/links', { headers: { 'X-API-Key': ADMIN } }));
    const totals = Object.fromEntries(
      listed.data.links.map((link: { code: string; clicks: number }) => [link.code, link.clicks]),
    );
    expect(totals).toEqual({ Live: 107, soon: 1, off: 0 });
    const one = await json(await app.fetch('/api/v1/links/live', { headers: { 'X-API-Key': ADMIN } }));
    expect(one.data.clicks).toBe(107);
    const days = one.data.clicks_by_day as Array<{ day: string; clicks: number }>;
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: '2026-01-02', clicks: 2 });
    expect(days[29]).toEqual({ day: '2026-01-31', clicks: 5 });
    expect(days.slice(1, 29).every((day) => day.clicks === 0)).toBe(true);
  });
});
