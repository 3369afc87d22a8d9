import { clipboardText, expect, historyItemFor, openTab, setServer, test } from './fixtures.js';
import { openPopup } from './popup-driver.js';

// The address bar's keyword `ln`, in real Chromium. Playwright cannot type into the omnibox, so
// the service worker's own handlers (the ones registered on chrome.omnibox) are called as the
// browser calls them: the suggestion for what is typed, then Enter.

/** The parts of the worker's `chrome` global read here (node's types do not have it). */
declare const chrome: { runtime: { getManifest(): { omnibox?: { keyword: string } } } };

interface Linklet {
  onOmniboxInput(text: string, tabUrl?: string): Promise<{ shortUrl: string; status: string } | undefined>;
  omniboxSuggestion(text: string): Promise<string>;
}
declare const self: { linklet: Linklet };

test('ln then a URL, or nothing for the tab: shortened on the server and copied; the suggestion says so', async ({
  ext,
  site,
  companion,
}) => {
  const worker = await ext.serviceWorker();
  expect(await worker.evaluate(() => chrome.runtime.getManifest().omnibox)).toEqual({ keyword: 'ln' });

  // No server: the suggestion says the link opens in this browser only, and nothing is copied.
  const page = await openTab(ext, site.url('/omnibox/tab'));
  await ext.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
  await page.evaluate(() => navigator.clipboard.writeText('what the user copied before'));
  expect(await worker.evaluate(() => self.linklet.omniboxSuggestion(''))).toBe(
    'Shorten this tab (a link only this browser opens; set a server in the options to copy one anyone can open)',
  );
  const local = await worker.evaluate((url) => self.linklet.onOmniboxInput(url), site.url('/omnibox/local'));
  expect(local?.status).toBe('local');
  expect(await clipboardText(ext, page)).toBe('what the user copied before');

  await setServer(ext, companion.url);
  const typed = site.url('/omnibox/typed?a=1&b=<2>');
  // Chromium reads the suggestion as XML: the URL's & and < are escaped.
  expect(await worker.evaluate((text) => self.linklet.omniboxSuggestion(text), typed)).toBe(
    `Shorten ${typed.replace('&', '&#38;').replace('<', '&#60;').replace('>', '&#62;')} and copy its short URL`,
  );
  expect(await worker.evaluate(() => self.linklet.omniboxSuggestion('  '))).toBe(
    'Shorten this tab and copy its short URL',
  );

  const made = await worker.evaluate((text) => self.linklet.onOmniboxInput(`  ${text} `), typed);
  expect(made).toMatchObject({ status: 'synced', shortUrl: expect.stringMatching(new RegExp(`^${companion.url}/`)) });
  expect(await clipboardText(ext, page)).toBe(made?.shortUrl);
  expect(await companion.resolve(made?.shortUrl ?? '')).toEqual({ status: 302, location: typed });

  // Nothing typed: the current tab.
  const tabUrl = site.url('/omnibox/tab');
  const tab = await worker.evaluate((url) => self.linklet.onOmniboxInput('', url), tabUrl);
  expect(tab?.status).toBe('synced');
  expect(await clipboardText(ext, page)).toBe(tab?.shortUrl);

  const popup = await openPopup(ext, page);
  expect((await historyItemFor(popup, tabUrl, 'synced')).shortUrl).toBe(tab?.shortUrl);
  await popup.close();
});
