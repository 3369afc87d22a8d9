import { historyItemFor } from '../fixtures.js';
import { contextMenuClick, expect, test } from './fixtures.js';

// The context menu's and the keyboard shortcut's handlers, called in the background as the
// browser calls them: they shorten and the popup lists what they made. With no server set, the
// link opens in this browser only, so nothing is copied unasked (copying a server's link from the
// background, through Chromium's offscreen document or Firefox's background page, is tested in
// omnibox.spec.ts beside this file).

test('the menu items and the shortcut shorten a link, a page and the tab, and copy no local link', async ({
  ext,
  site,
}) => {
  const pageUrl = site.url('/menu/page');
  const page = await ext.openTab(pageUrl);
  const localLink = new RegExp(`^${ext.origin}/open\\.html#/[^/]+/$`);

  const linkUrl = site.url('/menu/linked');
  const link = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-link', linkUrl, pageUrl });
  expect(link).toMatchObject({ status: 'local', shortUrl: expect.stringMatching(localLink) });
  // The handler has copied (or not) by the time it returns. The clipboard is the browser's, not
  // the profile's: in Firefox (one browser for every test) it may still hold a local link an earlier
  // test copied by hand, so what is checked is that the link just made is not on it.
  expect(await ext.clipboardText(page)).not.toBe(link?.shortUrl);

  const pageLink = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-page', pageUrl });
  expect(pageLink).toMatchObject({ status: 'local', shortUrl: expect.stringMatching(localLink) });
  expect(await ext.clipboardText(page)).not.toBe(pageLink?.shortUrl);

  const tabUrl = site.url('/shortcut/page');
  const shortcut = await ext.background<{ shortUrl: string }>(
    `self.linklet.onCommand('shorten-current-tab', { url: ${JSON.stringify(tabUrl)} })`,
  );
  expect(shortcut.shortUrl).toMatch(localLink);
  expect(await ext.clipboardText(page)).not.toBe(shortcut.shortUrl);

  const popup = await ext.openPopup();
  expect((await historyItemFor(popup, linkUrl, 'local')).shortUrl).toBe(link?.shortUrl);
  expect((await historyItemFor(popup, pageUrl, 'local')).shortUrl).toBe(pageLink?.shortUrl);
  expect((await historyItemFor(popup, tabUrl, 'local')).shortUrl).toBe(shortcut.shortUrl);

  const visitor = await ext.openTab(link?.shortUrl ?? '');
  await visitor.waitForUrl(linkUrl);
});
