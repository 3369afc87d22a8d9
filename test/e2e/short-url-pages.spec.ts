import { expect, test } from '@playwright/test';
import {
  DISABLED_CODE,
  EXPIRED_CODE,
  launchChromium,
  type PagesServer,
  startPagesServer,
  UNKNOWN_CODE,
  visitorContext,
} from './short-url-pages-fixtures.js';
import { expectNoSeriousViolations } from './web-app/fixtures.js';

// The pages a person meets at a dead short link, in real Chromium: on a phone and a desktop,
// light and dark, English and Korean, with a code of 40 Hangul syllables.

const CASES = [
  {
    code: EXPIRED_CODE,
    status: 410,
    en: ['This link has expired', '25 Nov 2026, 10:00 UTC'],
    ko: ['만료된 링크입니다', '2026년 11월 25일 오전 10:00 (UTC)'],
  },
  {
    code: DISABLED_CODE,
    status: 410,
    en: ['This link was turned off by its owner'],
    ko: ['소유자가 사용을 중지한 링크입니다'],
  },
  { code: UNKNOWN_CODE, status: 404, en: ['There is no link here'], ko: ['이 주소에는 링크가 없습니다'] },
] as const;

let server: PagesServer;
test.beforeAll(async () => {
  server = await startPagesServer();
});
test.afterAll(async () => {
  await server.stop();
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  for (const theme of ['light', 'dark'] as const) {
    for (const language of ['en', 'ko'] as const) {
      test(`${viewport.width}px, ${theme}, ${language}: every dead link says why, fits, and passes axe`, async () => {
        const browser = await launchChromium();
        const context = await visitorContext(browser, language === 'ko' ? 'ko-KR' : 'en-US', viewport, theme);
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('console', (message) => {
          // The page's own 404/410 is expected; a policy violation is not.
          if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(message.text());
        });
        for (const { code, status, ...words } of CASES) {
          const response = await page.goto(`${server.url}/${encodeURIComponent(code)}`);
          expect(response?.status()).toBe(status);
          await expect(page.locator('html')).toHaveAttribute('lang', language);
          for (const word of words[language]) await expect(page.locator('main')).toContainText(word);
          await expect(page.locator('code')).toHaveText(`/${code}`);
          await expect(
            page.getByRole('link', { name: language === 'ko' ? 'Linklet으로 가기' : 'Go to Linklet' }),
          ).toHaveAttribute('href', '/');
          const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
          expect(fits, `${code} at ${viewport.width}px scrolls sideways`).toBe(true);
          const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
          expect(background).toBe(theme === 'dark' ? 'rgb(22, 24, 28)' : 'rgb(255, 255, 255)');
          await expectNoSeriousViolations(page, `${code} (${language}, ${theme}, ${viewport.width}px)`);
        }
        // The icon the page names is served, as an image of the page's own origin.
        const icon = await page.request.get(`${server.url}/favicon.svg`);
        expect(icon.headers()['content-type']).toBe('image/svg+xml');
        // Both icons load as images under the page's own policy: the one it names, and
        // /favicon.ico, which browsers and crawlers ask for unprompted.
        const loaded = await page.evaluate(
          (paths) =>
            Promise.all(
              paths.map(
                (path) =>
                  new Promise<string>((resolve) => {
                    const image = new Image();
                    image.onload = () => resolve(`${path} ${image.naturalWidth}x${image.naturalHeight}`);
                    image.onerror = () => resolve(`${path} failed`);
                    image.src = path;
                  }),
              ),
            ),
          ['/favicon.svg', '/favicon.ico'],
        );
        // An SVG without width and height has the browser's default size; the ICO holds a 32 px PNG.
        expect(loaded).toEqual([expect.stringMatching(/^\/favicon\.svg \d+x\d+$/), '/favicon.ico 32x32']);
        expect(problems).toEqual([]);
        await browser.close();
      });
    }
  }
}
