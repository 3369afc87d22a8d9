import { expect, test } from './fixtures.js';

// What Chromium sees of the extension: its permissions and the shortcut's registration. (The
// shortcut's handler runs in both browsers in cross-browser/menu-and-shortcut.spec.ts.)

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
