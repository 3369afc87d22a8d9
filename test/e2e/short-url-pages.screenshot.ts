import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { EXPIRED_CODE, launchChromium, startPagesServer, visitorContext } from './short-url-pages-fixtures.js';

// `npm run screenshots`, not `npm test`: the expired short-URL page as a phone shows it, in
// English and in Korean (a code of 40 Hangul syllables; Hangul needs fonts-noto-cjk).

for (const [language, locale, heading] of [
  ['en', 'en-US', 'This link has expired'],
  ['ko', 'ko-KR', '만료된 링크입니다'],
] as const) {
  test(`docs/short-url-expired-${language}.png: the expired page`, async () => {
    const server = await startPagesServer();
    const browser = await launchChromium();
    const context = await visitorContext(browser, locale, { width: 390, height: 700 }, 'light');
    const page = await context.newPage();
    await page.goto(`${server.url}/${encodeURIComponent(EXPIRED_CODE)}`);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    await page.screenshot({ path: resolve(`docs/short-url-expired-${language}.png`) });
    await browser.close();
    await server.stop();
  });
}
