import { expect, expectNoSeriousViolations, makeLinks, test } from './fixtures.js';
import { sidewaysOverflow, signIn, VIEWPORTS } from './screens-fixtures.js';

// Where clicks come from, in the web app: a link's details show `GET /api/v1/links/{code}/stats` (SPEC "Visits"):
// the daily chart with dates and the top lists, readable on a phone. The answer is the fixture
// below, in exactly the documented shape, so this runs against any server; a server without the
// endpoint falls back to the link's daily clicks (the second test, the real server's answer).
const today = new Date().toISOString().slice(0, 10);
const STATS = {
  total: 42,
  bots: 3,
  days: [{ day: today, clicks: 42 }],
  referrers: [
    { name: 'direct', clicks: 30 },
    { name: 'a-very-long-referrer-host-name.news.example.com', clicks: 12 },
  ],
  countries: [
    { name: 'KR', clicks: 40 },
    { name: 'US', clicks: 2 },
  ],
  browsers: [{ name: 'Chrome', clicks: 42 }],
  os: [{ name: 'Android', clicks: 42 }],
  devices: [{ name: 'mobile', clicks: 42 }],
};

for (const locale of ['en-US', 'ko-KR'] as const) {
  test.describe(locale, () => {
    test.use({ uiLocale: locale, theme: 'dark' });

    test('the details show the stats: totals, a dated daily chart and five top lists, inside a phone’s screen', async ({
      app,
      server,
    }) => {
      await app.setViewportSize(VIEWPORTS.phone);
      await app.route('**/api/v1/links/*/stats', (route) =>
        route.fulfill({ json: { status: 'success', message: 'ok', data: STATS } }),
      );
      const alice = await server.createKey('alice');
      await makeLinks(server, alice, ['stats']);
      await signIn(app, alice, locale);
      await app.locator('#links-body [data-action="details"]').click();
      const stats = app.locator('.details-row:not([hidden]) .stats');
      await expect(stats.locator('.top-list')).toHaveCount(5);
      const ko = locale === 'ko-KR';
      await expect(stats.locator('.stats-total')).toHaveText(
        ko ? '클릭: 42 · 봇(세지 않음): 3' : 'Clicks: 42 · bots (not counted): 3',
      );
      await expect(stats.locator('.top-list').nth(1)).toContainText(ko ? '대한민국' : 'South Korea');
      await expect(stats.locator('.top-list').first()).toContainText(ko ? '직접 방문' : 'Direct or unknown');
      // Dates on the axis, and a label big enough to read on the phone.
      const labels = stats.locator('svg.chart text');
      await expect(labels).toHaveCount(4);
      const height = await labels.last().evaluate((text) => text.getBoundingClientRect().height);
      expect(height).toBeGreaterThanOrEqual(9);
      for (const list of await stats.locator('.top-list').all()) {
        const box = await list.boundingBox();
        expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= VIEWPORTS.phone.width).toBe(true);
      }
      const page = await sidewaysOverflow(app);
      expect(page.scrollWidth).toBeLessThanOrEqual(page.viewport);
      await expectNoSeriousViolations(app, `the stats, ${locale}`);
    });
  });
}

test('a server without /stats: the link’s daily clicks, drawn with dates, and a line saying so', async ({
  app,
  server,
}) => {
  await app.route('**/api/v1/links/*/stats', (route) =>
    route.fulfill({ status: 404, json: { status: 'error', message: 'Not found.' } }),
  );
  const alice = await server.createKey('alice');
  await makeLinks(server, alice, ['older']);
  await signIn(app, alice, 'en-US');
  await app.locator('#links-body [data-action="details"]').click();
  const stats = app.locator('.details-row:not([hidden]) .stats');
  await expect(stats.locator('rect.chart-bar')).toHaveCount(30);
  await expect(stats.locator('svg.chart text')).toHaveCount(4);
  await expect(stats).toContainText('This server shows daily clicks only.');
  await expect(app.locator('.details-row:not([hidden]) .error:not([hidden])')).toHaveCount(0);
});
