import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import {
  type ExtensionUnderTest,
  type ExtPage,
  expressionPage,
  type LaunchOptions,
} from '../cross-browser/extension-under-test.js';
import { poll } from '../poll.js';

/** The built Firefox extension (`npx wxt build -b firefox`; the global setup builds it). */
export const FIREFOX_EXTENSION_DIR = resolve('.output/firefox-mv2');

/**
 * The add-on's internal UUID, fixed through a preference so its pages have a known address
 * (`moz-extension://<uuid>/…`); Firefox otherwise picks a random one per profile.
 */
const EXTENSION_UUID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

const INSTALL_HINT =
  'install one (Debian/Ubuntu: `sudo apt-get install firefox-esr`) or set FIREFOX_PATH to a Firefox binary.';

/** The Firefox to drive: `FIREFOX_PATH` if set, else Debian's `firefox-esr`, else `firefox`. */
export function firefoxPath(): string {
  const fromEnv = process.env.FIREFOX_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`FIREFOX_PATH is ${fromEnv}, which does not exist; ${INSTALL_HINT}`);
    return fromEnv;
  }
  const found = ['/usr/bin/firefox-esr', '/usr/bin/firefox'].find((path) => existsSync(path));
  if (!found) throw new Error(`No Firefox found for the end-to-end tests; ${INSTALL_HINT}`);
  return found;
}

function geckoId(): string {
  const manifestPath = join(FIREFOX_EXTENSION_DIR, 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`${FIREFOX_EXTENSION_DIR} has no manifest.json; build it with \`npx wxt build -b firefox\`.`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    browser_specific_settings: { gecko: { id: string } };
  };
  return manifest.browser_specific_settings.gecko.id;
}

/** A puppeteer page as an `ExtPage`. */
function wrapPage(page: Page): ExtPage {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error instanceof Error ? error.message : String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const evaluate = <T>(expression: string) => page.evaluate(expression) as Promise<T>;
  return {
    errors,
    evaluate,
    ...expressionPage(evaluate),
    async setInputFile(selector, path) {
      const input = await page.$(selector);
      if (!input) throw new Error(`no ${selector} in the page`);
      await (input as unknown as { uploadFile(...paths: string[]): Promise<void> }).uploadFile(path);
    },
    close: () => page.close(),
  };
}

/**
 * A new tab. While the extension restarts (see `reset`), Firefox may discard a tab it is still
 * creating; a second try gets one.
 */
async function newPage(browser: Browser): Promise<Page> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await browser.newPage();
    } catch (error) {
      if (attempt === 3 || !String(error).includes('DiscardedBrowsingContextError')) throw error;
      await new Promise((resolveWait) => setTimeout(resolveWait, 200));
    }
  }
}

/**
 * Loads `url` in `page`. Firefox does not report the load of an extension page over BiDi, so
 * such a navigation is started and the page polled until its document is there.
 */
async function navigate(page: Page, url: string): Promise<void> {
  if (!url.startsWith('moz-extension:')) {
    await page.goto(url);
    return;
  }
  page.goto(url, { waitUntil: 'domcontentloaded', timeout: 0 }).catch(() => undefined);
  await poll(
    () => page.evaluate(`location.href !== 'about:blank' && document.readyState === 'complete'`),
    `${url} to load`,
  );
}

/**
 * The extension in Firefox (MV2) for the shared specs: puppeteer-core over WebDriver BiDi, as
 * Playwright cannot drive a stock Firefox. A fresh profile per launch.
 */
export interface FirefoxUnderTest extends ExtensionUnderTest {
  /**
   * Makes the extension as new: closes every tab, clears its storage and IndexedDB and restarts it
   * (`runtime.reload`). Far cheaper than a new Firefox, so tests share one browser.
   */
  reset(): Promise<void>;
}

export async function launchFirefoxUnderTest(options: LaunchOptions = {}): Promise<FirefoxUnderTest> {
  const id = geckoId();
  const downloads = await mkdtemp(join(tmpdir(), 'linklet-firefox-downloads-'));
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath(),
    headless: true,
    // Without it Firefox refuses navigations to extension pages over BiDi.
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [id]: EXTENSION_UUID }),
      // The UI language picks the extension's messages (Korean needs Debian's firefox-esr-l10n-ko).
      'intl.locale.requested': options.lang ?? 'en-US',
      // Downloads (the history export) go straight into a folder the test reads.
      'browser.download.dir': downloads,
      'browser.download.folderList': 2,
      'browser.download.useDownloadDir': true,
      'browser.download.always_ask_before_handling_new_types': false,
      // Lets a test page read the clipboard without the paste prompt a user would click.
      'dom.events.testing.asyncClipboard': true,
    },
  });
  try {
    await browser.installExtension(FIREFOX_EXTENSION_DIR);
  } catch (error) {
    await browser.close();
    throw error;
  }
  const origin = `moz-extension://${EXTENSION_UUID}`;
  const pages = new WeakMap<ExtPage, Page>();
  const openTab = async (url: string) => {
    const page = await newPage(browser);
    await navigate(page, url);
    const wrapped = wrapPage(page);
    pages.set(wrapped, page);
    return wrapped;
  };
  // An extension page to reach the background from: MV2 pages share its process and its window.
  let backgroundDoor: Promise<ExtPage> | undefined;
  const openBackgroundDoor = async () => {
    const door = await openTab(`${origin}/open.html#/`);
    await door.waitFor(
      `browser.runtime.getBackgroundPage().then((page) => page !== null && 'linklet' in page)`,
      'the background to be up',
    );
    return door;
  };

  return {
    engine: 'firefox',
    origin,
    openTab,
    openPopup: async () => {
      const popup = await openTab(`${origin}/popup.html`);
      await popup.waitFor(`document.querySelector('#status').textContent !== ''`, 'the popup to be ready');
      return popup;
    },
    async background<T>(expression: string) {
      backgroundDoor ??= openBackgroundDoor();
      // `self` is the background's window inside the expression, as in Chromium's worker.
      return (await backgroundDoor).evaluate<T>(`(async () => {
        const self = await browser.runtime.getBackgroundPage();
        const value = await (${expression});
        return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
      })()`);
    },
    async download(page, selector) {
      const before = new Set(await readdir(downloads));
      await page.click(selector);
      const name = await poll(async () => {
        const names = await readdir(downloads);
        // Firefox writes `<name>.part` and renames it when the download is complete.
        const done = names.filter((file) => !before.has(file) && !file.endsWith('.part'));
        return done.length === 1 && !names.some((file) => file.endsWith('.part')) ? done[0] : undefined;
      }, 'the download');
      return join(downloads, name);
    },
    async clipboardText(sitePage) {
      await pages.get(sitePage)?.bringToFront();
      return sitePage.evaluate<string>('navigator.clipboard.readText()');
    },
    async waitForTab(url) {
      const page = await poll(async () => {
        for (const candidate of await browser.pages()) {
          if ((await candidate.evaluate('location.href').catch(() => '')) === url) return candidate;
        }
        return undefined;
      }, `a tab at ${url}`);
      const wrapped = wrapPage(page);
      pages.set(wrapped, page);
      return wrapped;
    },
    async reset() {
      // Every tab closes but a blank one (a window without tabs would close) and the door...
      const blank = await newPage(browser);
      const door = await openBackgroundDoor();
      const keep = [blank, pages.get(door)];
      await Promise.all((await browser.pages()).filter((page) => !keep.includes(page)).map((page) => page.close()));
      // ...then the extension forgets everything, as a new profile would, and restarts.
      const cleared = await door.evaluate(`(async () => {
        await browser.storage.local.clear();
        await new Promise((resolve, reject) => {
          const deletion = indexedDB.deleteDatabase('linklet');
          deletion.onsuccess = resolve;
          deletion.onerror = () => reject(deletion.error);
        });
        // After the answer: the reload closes this page.
        setTimeout(() => browser.runtime.reload(), 0);
        return 'cleared';
      })()`);
      if (cleared !== 'cleared') throw new Error(`Resetting the extension answered ${String(cleared)}.`);
      // The reload closes the extension's pages; one opened before that would close with them.
      await poll(
        () =>
          door.evaluate('false').then(
            () => false,
            () => true,
          ),
        'the extension to restart',
      );
      backgroundDoor = openBackgroundDoor();
      await backgroundDoor;
    },
    async close() {
      await browser.close();
      await rm(downloads, { recursive: true, force: true });
    },
  };
}
