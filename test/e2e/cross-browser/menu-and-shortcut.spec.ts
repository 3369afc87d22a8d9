import { historyItemFor } from '../fixtures.js';
import { contextMenuClick, expect, test } from './fixtures.js';

// The context menu's and the keyboard shortcut's handlers, called in the background as the
// browser calls them: they shorten, copy the short URL (Chromium through its offscreen document,
// Firefox from the background page) and the popup lists what they made.

test('the menu items and the shortcut shorten a link, a page and the tab, and copy the short URL', async ({
  ext,
  site,
}) => {
  const pageUrl = site.url('/menu/page');
  const page = await ext.openTab(pageUrl);
  const localLink = new RegExp(`^${ext.origin}/open\\.html#/[^/]+/$`);

  const linkUrl = site.url('/menu/linked');
  const link = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-link', linkUrl, pageUrl });
  expect(link).toMatchObject({ status: 'local', shortUrl: expect.stringMatching(localLink) });
  await expect.poll(() => ext.clipboardText(page)).toBe(link?.shortUrl);

  const pageLink = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-page', pageUrl });
  expect(pageLink).toMatchObject({ status: 'local', shortUrl: expect.stringMatching(localLink) });
  await expect.poll(() => ext.clipboardText(page)).toBe(pageLink?.shortUrl);

  const tabUrl = site.url('/shortcut/page');
  const shortcut = await ext.background<{ shortUrl: string }>(
    `self.linklet.onCommand('shorten-current-tab', { url: ${JSON.stringify(tabUrl)} })`,
  );
  expect(shortcut.shortUrl).toMatch(localLink);
  await expect.poll(() => ext.clipboardText(page)).toBe(shortcut.shortUrl);

  const popup = await ext.openPopup();
  expect((await historyItemFor(popup, linkUrl, 'local')).shortUrl).toBe(link?.shortUrl);
  expect((await historyItemFor(popup, pageUrl, 'local')).shortUrl).toBe(pageLink?.shortUrl);
  expect((await historyItemFor(popup, tabUrl, 'local')).shortUrl).toBe(shortcut.shortUrl);

  const visitor = await ext.openTab(link?.shortUrl ?? '');
  await visitor.waitForUrl(linkUrl);
});
