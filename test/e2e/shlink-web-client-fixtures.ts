import { resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { serveStaticFiles } from './static-files.js';
import { startTestSite, type TestSite } from './test-site.js';
import { test as base, expect, type WebAppServer } from './web-app/fixtures.js';

export { expect };

/** The built page (`test/e2e/shlink-web-client/`), made by the global setup. */
const CLIENT_DIR = resolve('dist/shlink-web-client');
/** Shlink's real-time updates: Linklet answers this as a Shlink without Mercure does (501), and the client carries on without. */
const MERCURE_INFO = /\/rest\/v3\/mercure-info$/;

interface ShlinkWebClientFixtures {
  /** The pages the links point to: a followed short URL lands on one, as a visitor's would. */
  site: TestSite;
  /** An owner's key, made with the keys command: the key a person gives the client. */
  aliceKey: string;
  /**
   * Opens Shlink's web client in Chromium at `path` (`/list-short-urls/1`, `/overview`…), served
   * from its own origin and pointed at the Linklet server with `aliceKey`. Every call it makes to
   * the server is cross-origin with `X-Api-Key`, so each goes through CORS (a preflight) exactly as
   * from app.shlink.io. The client loads what it lists when it opens, so a test makes its links first.
   */
  openClient(path: string): Promise<Page>;
}

export const test = base.extend<ShlinkWebClientFixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
  site: async ({}, use) => {
    const site = await startTestSite();
    await use(site);
    await site.close();
  },
  aliceKey: async ({ server }, use) => {
    await use(await server.createKey('alice'));
  },
  openClient: async ({ chromiumBrowser, server, aliceKey }, use, testInfo) => {
    const files = await serveStaticFiles(CLIENT_DIR);
    expect(new URL(files.origin).origin).not.toBe(new URL(server.url).origin);
    // UTC, so the dates on screen are the server's days.
    const context = await chromiumBrowser.newContext({ locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    const failedCalls: string[] = [];
    const scriptErrors: string[] = [];
    page.on('response', (response) => {
      const url = response.url();
      if (
        url.startsWith(server.url) &&
        response.status() >= 400 &&
        !(MERCURE_INFO.test(url) && response.status() === 501)
      ) {
        failedCalls.push(`${response.request().method()} ${url.slice(server.url.length)} → ${response.status()}`);
      }
    });
    page.on('requestfailed', (request) => {
      const error = request.failure()?.errorText;
      // ERR_ABORTED: the page itself cancelled the call (a reload, or a screen left before it answered).
      if (error === 'net::ERR_ABORTED') return;
      failedCalls.push(`${request.method()} ${request.url()}: ${error}`);
    });
    page.on('pageerror', (error) => scriptErrors.push(error.message));
    page.on('console', (message) => {
      // A failed call is reported above with its address; anything else the console says is an error.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        scriptErrors.push(message.text());
      }
    });
    const connection = new URLSearchParams({ server: server.url, key: aliceKey });
    await use(async (path) => {
      await page.goto(`${files.origin}${path}#${connection}`);
      return page;
    });
    await context.close();
    await files.close();
    if (testInfo.status === testInfo.expectedStatus) {
      // A call the client makes that Linklet refuses is a gap in its Shlink API, even when the screen looks right.
      expect(failedCalls, 'calls to the Linklet server that failed').toEqual([]);
      expect(scriptErrors, 'errors in the page').toEqual([]);
    }
  },
});

/** Makes a link through Linklet's own API (`POST /api/v1/shorten`), as another client would. */
export async function makeLink(
  server: WebAppServer,
  key: string,
  link: { code: string; url: string; title?: string; tags?: string[] },
): Promise<string> {
  const made = await server.api('POST', '/api/v1/shorten', {
    key,
    body: { original_url: link.url, custom_code: link.code, title: link.title, tags: link.tags },
  });
  expect(made.status, made.body.message).toBe(201);
  return `${server.url}/${link.code}`;
}

/**
 * Follows `shortUrl` `times` times in browser contexts of their own (visitors, not the client's
 * user; no shared cache) and waits until the server has counted the clicks, which it writes about
 * once a second. The visitors say they are the desktop Chrome they are: headless Chromium's own
 * User-Agent names it `HeadlessChrome`, which the server rightly counts as a bot, not a click.
 */
export async function visit(
  browser: Browser,
  server: WebAppServer,
  key: string,
  { shortUrl, times, referer }: { shortUrl: string; times: number; referer?: string },
): Promise<void> {
  const code = shortUrl.slice(shortUrl.lastIndexOf('/') + 1);
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`;
  for (let i = 0; i < times; i++) {
    const visitor = await browser.newPage({ userAgent });
    await visitor.goto(shortUrl, referer === undefined ? {} : { referer });
    await expect(visitor).toHaveTitle(/^Test page /);
    await visitor.context().close();
  }
  await expect
    .poll(async () => (await server.api('GET', `/api/v1/links/${code}`, { key })).body.data.clicks, {
      message: `clicks of ${code} counted`,
    })
    .toBe(times);
}
