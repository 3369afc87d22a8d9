import { clipboardText, expect, historyItemFor, openTab, popupWithResult, test } from './fixtures.js';

// What the browser sees of the extension: its permissions, menus' and shortcut's registration,
// and the shortcut's handler run in the service worker as the browser runs it.

/** The parts of the worker's `chrome` global read here (node's types do not have it). */
declare const chrome: {
  runtime: { getManifest(): { permissions?: string[]; host_permissions?: string[]; default_locale?: string } };
  commands: { getAll(): Promise<{ name?: string; shortcut?: string; description?: string }[]> };
};

test('asks for the minimal permissions and registers the shortcut', async ({ ext }) => {
  const worker = await ext.serviceWorker();
  const manifest = await worker.evaluate(() => chrome.runtime.getManifest());
  expect([...(manifest.permissions ?? [])].sort()).toEqual(
    ['activeTab', 'alarms', 'clipboardWrite', 'contextMenus', 'notifications', 'offscreen', 'storage'].sort(),
  );
  expect(manifest.host_permissions ?? []).toEqual([]);
  expect(manifest.default_locale).toBe('en');

  const commands = await worker.evaluate(() => chrome.commands.getAll());
  expect(commands).toContainEqual(
    expect.objectContaining({
      name: 'shorten-current-tab',
      shortcut: 'Alt+Shift+L',
      description: 'Shorten the current tab and copy the short URL',
    }),
  );
});

test('the keyboard shortcut shortens the current tab and copies the short URL', async ({ ext, site }) => {
  const pageUrl = site.url('/shortcut/page');
  const page = await openTab(ext, pageUrl);
  const worker = await ext.serviceWorker();

  const made = await worker.evaluate(
    (url) =>
      (
        self as unknown as {
          linklet: { onCommand(command: string, tab: { url: string }): Promise<{ shortUrl: string }> };
        }
      ).linklet.onCommand('shorten-current-tab', { url }),
    pageUrl,
  );
  expect(made.shortUrl).toMatch(new RegExp(`^${ext.origin}/open\\.html#/[^/]+/$`));
  await expect.poll(() => clipboardText(ext, page)).toBe(made.shortUrl);

  const { popup, shortUrl } = await popupWithResult(ext, page);
  expect(shortUrl).toBe(made.shortUrl);
  expect((await historyItemFor(popup, pageUrl, 'local')).shortUrl).toBe(made.shortUrl);
  await popup.close();
});
