import { test as base, expect } from '@playwright/test';
import { launchChromiumUnderTest } from '../chromium-under-test.js';
import { type Companion, createCompanion } from '../companion-server.js';
import { type FirefoxUnderTest, launchFirefoxUnderTest } from '../firefox/launch-firefox.js';
import { startTestSite, type TestSite } from '../test-site.js';
import type { Engine, ExtensionUnderTest, ExtPage, LaunchOptions } from './extension-under-test.js';

export { expect };

/** The specs in this folder run in every browser of the config's projects, picked by `engine`. */
export interface EngineOption {
  engine: Engine;
}

interface Fixtures {
  /** A local HTTP site whose pages the tests shorten. */
  site: TestSite;
  /** The built extension in a fresh profile of the project's browser. */
  ext: ExtensionUnderTest;
  /** Another fresh profile (e.g. to import into, or in another language), closed after the test. */
  launch: (options?: LaunchOptions) => Promise<ExtensionUnderTest>;
  /** A running companion server on SQLite in a temporary directory. */
  companion: Companion;
}

interface WorkerFixtures extends EngineOption {
  /** One Firefox per worker, reset before each test (starting Firefox costs seconds). */
  firefox: FirefoxUnderTest | undefined;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  engine: ['chromium', { option: true, scope: 'worker' }],
  firefox: [
    async ({ engine }, use) => {
      if (engine !== 'firefox') return use(undefined);
      const firefox = await launchFirefoxUnderTest();
      await use(firefox);
      await firefox.close();
    },
    { scope: 'worker' },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
  site: async ({}, use) => {
    const site = await startTestSite();
    await use(site);
    await site.close();
  },
  launch: async ({ engine }, use) => {
    const launched: ExtensionUnderTest[] = [];
    await use(async (options) => {
      const ext = await (engine === 'firefox' ? launchFirefoxUnderTest : launchChromiumUnderTest)(options);
      launched.push(ext);
      return ext;
    });
    await Promise.all(launched.map((ext) => ext.close()));
  },
  ext: async ({ firefox, launch }, use) => {
    if (!firefox) return use(await launch());
    await firefox.reset();
    await use(firefox);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
  companion: async ({}, use) => {
    const companion = await createCompanion();
    await companion.start();
    await use(companion);
    await companion.dispose();
  },
});

/** Shortens `url` with the popup's form, as a user types it, and returns the short URL shown. */
export async function shortenWithForm(
  popup: ExtPage,
  input: { url: string; code?: string; expire?: string },
): Promise<string> {
  const before = await popup.evaluate<string>(`document.querySelector('#short-url').value`);
  await popup.fill('#url', input.url);
  await popup.fill('#code', input.code ?? '');
  if (input.expire) await popup.fill('#expire', input.expire);
  await popup.click('#shorten');
  return popup.waitFor<string>(
    `(() => {
      if (document.querySelector('#shorten').disabled) return false;
      const error = document.querySelector('#error');
      // Thrown, so a timeout says what the popup showed instead of a link.
      if (!error.hidden) throw new Error('the popup says: ' + error.textContent);
      const value = document.querySelector('#short-url').value;
      return value !== ${JSON.stringify(before)} && value;
    })()`,
    `a new short URL for ${input.url}`,
  );
}

/**
 * Sets the companion server in the options page as a user does: type the URL, test the
 * connection (it must say connected), save.
 */
export async function setServer(ext: ExtensionUnderTest, serverUrl: string): Promise<void> {
  const options = await ext.openTab(`${ext.origin}/options.html`);
  await options.fill('#server-url', serverUrl);
  await options.click('#test-connection');
  await options.waitFor(
    `document.querySelector('#connection-result').textContent.startsWith('Connected')`,
    'the connection test to pass',
  );
  expect(await options.text('#connection-result')).toContain(`${serverUrl}/api/v1/shorten`);
  await options.click('#save');
  await options.waitFor(`document.querySelector('#options-status').textContent === 'Saved.'`, 'the settings saved');
  await options.close();
}

/** Runs the context-menu click handler in the background, as the browser would on a menu click. */
export function contextMenuClick(
  ext: ExtensionUnderTest,
  info: { menuItemId: string; linkUrl?: string; pageUrl?: string },
): Promise<{ shortUrl: string; status: string; code: string } | undefined> {
  return ext.background(`self.linklet.onContextMenuClick(${JSON.stringify(info)}, undefined)`);
}

/** Asks the background to push pending links now (`self.linklet.sync(true)`). */
export function syncNow(ext: ExtensionUnderTest): Promise<unknown> {
  return ext.background('self.linklet.sync(true)');
}
