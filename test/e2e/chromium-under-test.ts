import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  type ExtensionUnderTest,
  type ExtPage,
  expressionPage,
  type LaunchOptions,
} from './cross-browser/extension-under-test.js';
import { launchExtension } from './launch-extension.js';
import { poll } from './poll.js';
import { openPopup } from './popup-driver.js';

/** A Playwright page as an `ExtPage`, with the page kept for what only Playwright can do. */
function wrapPage(page: Page): ExtPage & { page: Page } {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const evaluate = <T>(expression: string) => page.evaluate(expression) as Promise<T>;
  return {
    page,
    errors,
    evaluate,
    ...expressionPage(evaluate),
    setInputFile: (selector, path) => page.locator(selector).setInputFiles(path),
    close: () => page.close(),
  };
}

/** The extension in Chromium (MV3) for the shared specs: Playwright, and CDP for the popup. */
export async function launchChromiumUnderTest(options: LaunchOptions = {}): Promise<ExtensionUnderTest> {
  const ext = await launchExtension(options);
  const pages = new WeakMap<ExtPage, Page>();
  let blankTabs = 0;
  const openTab = async (url: string) => {
    const page = await ext.context.newPage();
    await page.goto(url);
    const wrapped = wrapPage(page);
    pages.set(wrapped, page);
    return wrapped;
  };
  const playwrightPage = (page: ExtPage) => {
    const found = pages.get(page);
    if (!found) throw new Error('Not a tab of this browser (the popup has no Playwright page).');
    return found;
  };
  return {
    engine: 'chromium',
    origin: ext.origin,
    openTab,
    async openPopup() {
      // The toolbar click on a tab that is not a web page: the popup asks for a URL.
      blankTabs++;
      const tab = await ext.context.newPage();
      await tab.goto(`about:blank#popup-${blankTabs}`);
      const popup = await openPopup(ext, tab);
      await popup.waitFor(`document.querySelector('#status').textContent !== ''`, 'the popup to be ready');
      return {
        errors: popup.errors,
        evaluate: popup.evaluate,
        ...expressionPage(popup.evaluate),
        setInputFile: () => Promise.reject(new Error('The popup has no file input.')),
        close: () => popup.close(),
      };
    },
    async background<T>(expression: string) {
      return (await ext.serviceWorker()).evaluate(expression) as Promise<T>;
    },
    async download(page, selector) {
      const download = playwrightPage(page).waitForEvent('download');
      await page.click(selector);
      const saved = await download;
      const path = join(await mkdtemp(join(tmpdir(), 'linklet-download-')), saved.suggestedFilename());
      await saved.saveAs(path);
      return path;
    },
    async clipboardText(sitePage) {
      const page = playwrightPage(sitePage);
      await ext.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
      await page.bringToFront();
      return page.evaluate(() => navigator.clipboard.readText());
    },
    async waitForTab(url) {
      const page = await poll(
        async () => ext.context.pages().find((candidate) => candidate.url() === url),
        `a tab at ${url}`,
      );
      const wrapped = wrapPage(page);
      pages.set(wrapped, page);
      return wrapped;
    },
    close: () => ext.close(),
  };
}
