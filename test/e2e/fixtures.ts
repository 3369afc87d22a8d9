import { test as base, expect, type Page } from '@playwright/test';
import { type Companion, createCompanion } from './companion-server.js';
import { type ExtensionBrowser, launchExtension } from './launch-extension.js';
import { openPopup, type Popup } from './popup-driver.js';
import { startTestSite, type TestSite } from './test-site.js';

export { expect };

interface Fixtures {
  /** A local HTTP site whose pages the tests shorten. */
  site: TestSite;
  /** Chromium with the built extension, in a fresh profile. */
  ext: ExtensionBrowser;
  /** A running companion server on SQLite in a temporary directory (started on first use). */
  companion: Companion;
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
  site: async ({}, use) => {
    const site = await startTestSite();
    await use(site);
    await site.close();
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
  ext: async ({}, use, testInfo) => {
    const ext = await launchExtension();
    const log: string[] = [];
    const worker = await ext.serviceWorker();
    worker.on('console', (message) => log.push(`[background ${message.type()}] ${message.text()}`));
    ext.context.on('console', (message) => log.push(`[page ${message.type()}] ${message.text()}`));
    await use(ext);
    if (testInfo.status !== testInfo.expectedStatus && log.length > 0) {
      await testInfo.attach('extension-console.txt', { body: log.join('\n'), contentType: 'text/plain' });
    }
    await ext.close();
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
  companion: async ({}, use) => {
    const companion = await createCompanion();
    await companion.start();
    await use(companion);
    await companion.dispose();
  },
});

/** Opens `url` in a new tab and waits for it to load. */
export async function openTab(ext: ExtensionBrowser, url: string): Promise<Page> {
  const page = await ext.context.newPage();
  await page.goto(url);
  return page;
}

/** Opens the popup by toolbar click on `page` and waits until it has shown a short URL. */
export async function popupWithResult(ext: ExtensionBrowser, page: Page): Promise<{ popup: Popup; shortUrl: string }> {
  const popup = await openPopup(ext, page);
  const shortUrl = await popup.waitFor<string>(
    `!document.querySelector('#result').hidden && document.querySelector('#short-url').value`,
    'a short URL in the popup',
  );
  return { popup, shortUrl };
}

/** The popup of either driver: the helpers below only evaluate expressions in it. */
type Evaluates = Pick<Popup, 'evaluate'>;

export interface HistoryItem {
  status: string;
  shortUrl: string;
  originalUrl: string;
  buttons: Array<{ action: string; label: string | null }>;
}

/** The popup's history list as the user sees it, newest first. */
export function readHistory(popup: Evaluates): Promise<HistoryItem[]> {
  return popup.evaluate<HistoryItem[]>(`[...document.querySelectorAll('#history .history-item')].map((item) => ({
    status: item.dataset.status,
    shortUrl: item.querySelector('.short-url').textContent,
    originalUrl: item.querySelector('.original-url').textContent,
    buttons: [...item.querySelectorAll('.actions button')].map((button) => ({
      action: button.className,
      label: button.getAttribute('aria-label'),
    })),
  }))`);
}

/** Waits until the popup's history has an item for `originalUrl` matching `status`, and returns it. */
export async function historyItemFor(
  popup: Evaluates,
  originalUrl: string,
  status?: string,
  timeout?: number,
): Promise<HistoryItem> {
  let found: HistoryItem | undefined;
  await expect
    .poll(
      async () => {
        found = (await readHistory(popup)).find(
          (item) => item.originalUrl === originalUrl && (status === undefined || item.status === status),
        );
        return found !== undefined;
      },
      { message: `history item for ${originalUrl}${status ? ` with status ${status}` : ''}`, timeout },
    )
    .toBe(true);
  return found as HistoryItem;
}

/** The popup's `#error` alert: its text when shown, '' when hidden. */
export function popupError(popup: Evaluates): Promise<string> {
  // A popup still loading has no #error yet: it shows none, so a poll asks again.
  return popup.evaluate<string>(`(() => {
    const error = document.querySelector('#error');
    return error === null || error.hidden ? '' : error.textContent;
  })()`);
}

/**
 * Sets the companion server in the options page as a user does: type the URL, test the
 * connection (it must say connected), save.
 */
export async function setServer(ext: ExtensionBrowser, serverUrl: string): Promise<void> {
  const options = await openTab(ext, `${ext.origin}/options.html`);
  await options.locator('#server-url').fill(serverUrl);
  await options.locator('#test-connection').click();
  await expect(options.locator('#connection-result')).toContainText('Connected');
  await expect(options.locator('#connection-result')).toContainText(`${serverUrl}/api/v1/shorten`);
  await options.locator('#save').click();
  await expect(options.locator('#options-status')).toHaveText('Saved.');
  await options.close();
}

/** Runs the context-menu click handler in the background, as the browser would on a menu click. */
export async function contextMenuClick(
  ext: ExtensionBrowser,
  info: { menuItemId: string; linkUrl?: string; pageUrl?: string },
): Promise<{ shortUrl: string; status: string; code: string } | undefined> {
  const worker = await ext.serviceWorker();
  return worker.evaluate((clickInfo) => {
    const linklet = (
      self as unknown as { linklet: { onContextMenuClick(info: unknown, tab: unknown): Promise<never> } }
    ).linklet;
    return linklet.onContextMenuClick(clickInfo, undefined);
  }, info);
}

/** Asks the background to push pending links now (`self.linklet.sync(true)`). */
export async function syncNow(ext: ExtensionBrowser): Promise<unknown> {
  const worker = await ext.serviceWorker();
  return worker.evaluate(() =>
    (self as unknown as { linklet: { sync(force: boolean): Promise<unknown> } }).linklet.sync(true),
  );
}

/**
 * What the clipboard holds, read from a page of the test site (granted `clipboard-read`; the
 * extension's own origin cannot be granted it). Headless Chromium has one clipboard per browser.
 */
export async function clipboardText(ext: ExtensionBrowser, sitePage: Page): Promise<string> {
  await ext.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(sitePage.url()).origin });
  await sitePage.bringToFront();
  return sitePage.evaluate(() => navigator.clipboard.readText());
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Checks an expiry shown in the UI (ISO `dateTime`) is `days` after now, give or take an hour. */
export function expectExpiresInDays(iso: string, days: number): void {
  const expected = Date.now() + days * DAY_MS;
  expect(Math.abs(Date.parse(iso) - expected), `expiry ${iso} is ${days} days from now`).toBeLessThan(60 * 60 * 1000);
}
