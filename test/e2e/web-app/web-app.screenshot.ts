import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, makeLinks, signInWith, test, type WebAppServer } from './fixtures.js';
import { longUrl, signIn, VIEWPORTS } from './screens-fixtures.js';

// `npm run screenshots`, not `npm test`: the README's pictures of the web app at a laptop's and a
// phone's size, light and dark (the phone's dark one in Korean, so the Hangul font shows), signed
// in with a few links (one with a long target, three alike but for the end of their code and
// target), one just shortened and one with its details open.

/** A few links and clicks, as a person who has used the app for a while has. */
async function someLinks(server: WebAppServer): Promise<string> {
  const alice = await server.createKey('alice');
  await makeLinks(server, alice, ['guide', 'release-notes', '한글-안내']);
  // Links alike but for their end: the list shows each code whole and each target's end.
  for (const quarter of ['q2', 'q3', 'q4']) {
    const report = await server.api('POST', '/api/v1/shorten', {
      key: alice,
      body: {
        original_url: `https://example.com/reports/2026/quarterly-report-for-the-board-${quarter}.pdf`,
        custom_code: `quarterly-report-2026-${quarter}`,
      },
    });
    expect(report.status).toBe(201);
  }
  const long = await server.api('POST', '/api/v1/shorten', {
    key: alice,
    body: { original_url: longUrl(7), custom_code: '아주-긴-주소로-가는-링크' },
  });
  expect(long.status).toBe(201);
  // A few clicks for the chart (counted in batches, written within a second).
  for (let click = 0; click < 3; click++) await server.resolve(`${server.url}/guide/`);
  await new Promise((done) => setTimeout(done, 1500));
  return alice;
}

/**
 * A server that records no visits yet answers `/stats` with 404: the picture then shows what the
 * details look like with them, from an answer in the documented shape.
 */
async function statsForPicture(page: Page, server: WebAppServer, key: string): Promise<void> {
  if ((await server.api('GET', '/api/v1/links/guide/stats', { key })).status !== 404) return;
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const data = {
    total: 3,
    bots: 1,
    days: [
      { day: yesterday, clicks: 1 },
      { day: today, clicks: 2 },
    ],
    referrers: [
      { name: 'direct', clicks: 2 },
      { name: 'news.example.com', clicks: 1 },
    ],
    countries: [
      { name: 'KR', clicks: 2 },
      { name: 'US', clicks: 1 },
    ],
    browsers: [
      { name: 'Chrome', clicks: 2 },
      { name: 'Firefox', clicks: 1 },
    ],
    os: [
      { name: 'Android', clicks: 2 },
      { name: 'Windows', clicks: 1 },
    ],
    devices: [
      { name: 'mobile', clicks: 2 },
      { name: 'desktop', clicks: 1 },
    ],
  };
  await page.route('**/api/v1/links/*/stats', (route) =>
    route.fulfill({ json: { status: 'success', message: '', data } }),
  );
}

const PICTURES = [
  { name: 'web-app-light', theme: 'light', size: 'desktop', locale: 'en-US' },
  { name: 'web-app-dark', theme: 'dark', size: 'desktop', locale: 'en-US' },
  { name: 'web-app-phone-light', theme: 'light', size: 'phone', locale: 'en-US' },
  { name: 'web-app-phone-dark-ko', theme: 'dark', size: 'phone', locale: 'ko-KR' },
] as const;

for (const picture of PICTURES) {
  test.describe(picture.name, () => {
    test.use({ theme: picture.theme, uiLocale: picture.locale });

    test(`docs/${picture.name}.png: the web app signed in`, async ({ app, server }) => {
      const ko = picture.locale === 'ko-KR';
      await app.setViewportSize(VIEWPORTS[picture.size]);
      const alice = await someLinks(server);
      await statsForPicture(app, server, alice);
      if (ko) await signIn(app, alice, 'ko-KR');
      else await signInWith(app, alice, 'alice');
      await app.locator('#url').fill('example.com/blog/2026/a-long-article-about-short-links');
      await app.locator('#code').fill('blog');
      await app.locator('#shorten').click();
      await expect(app.locator('#short-url')).toHaveValue(`${server.url}/blog/`);
      const row = app.locator('#links-body tr[data-code="guide"]');
      await row.locator('[data-action="details"]').click();
      await expect(app.locator('.details-row:not([hidden]) .stats svg.chart')).toBeVisible();
      await app.locator('h1').hover(); // no hover state in the picture
      await app.screenshot({ path: resolve(`docs/${picture.name}.png`), fullPage: true });
    });
  });
}

/** A link whose rules a person would write: app stores by device, Korean readers, a campaign, a limit. */
async function linkWithRules(server: WebAppServer, key: string): Promise<void> {
  const made = await server.api('POST', '/api/v1/shorten', {
    key,
    body: {
      original_url: 'https://example.com/app',
      custom_code: 'app',
      title: 'Our app',
      redirect_rules: [
        {
          target_url: 'https://play.google.com/store/apps/details?id=com.example',
          conditions: [{ type: 'device', value: 'android' }],
        },
        { target_url: 'https://apps.apple.com/app/id123456789', conditions: [{ type: 'device', value: 'ios' }] },
        {
          target_url: 'https://example.com/ko/app',
          conditions: [
            { type: 'language', value: 'ko' },
            { type: 'query-param', key: 'utm_source', value: 'mail' },
          ],
        },
      ],
      max_visits: 1000,
      forward_query: true,
    },
  });
  expect(made.status, made.body.message).toBe(201);
}

const RULES_PICTURES = [
  { name: 'web-app-rules', theme: 'light', size: 'desktop', locale: 'en-US' },
  { name: 'web-app-rules-phone-dark-ko', theme: 'dark', size: 'phone', locale: 'ko-KR' },
] as const;

for (const picture of RULES_PICTURES) {
  test.describe(picture.name, () => {
    test.use({ theme: picture.theme, uiLocale: picture.locale });

    test(`docs/${picture.name}.png: a link's rules and limits in its details`, async ({ app, server }) => {
      await app.setViewportSize(VIEWPORTS[picture.size]);
      const alice = await server.createKey('alice');
      await linkWithRules(server, alice);
      await signIn(app, alice, picture.locale);
      await app.locator('#links-body tr[data-code="app"] [data-action="details"]').click();
      const details = app.locator('.details-row:not([hidden])');
      await details.locator('details.rules-disclosure > summary').click();
      await expect(details.locator('li.rule')).toHaveCount(3);
      await app.locator('h1').hover();
      await details.locator('details.rules-disclosure').screenshot({ path: resolve(`docs/${picture.name}.png`) });
    });
  });
}
