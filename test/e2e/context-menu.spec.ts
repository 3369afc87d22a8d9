import { clipboardText, contextMenuClick, expect, historyItemFor, openTab, popupWithResult, test } from './fixtures.js';

// The context menu's click handler, called in the service worker as the browser calls it.

test('the menu items shorten a link and a page, copy the short URL, and the popup lists them', async ({
  ext,
  site,
}) => {
  const pageUrl = site.url('/menu/page');
  const page = await openTab(ext, pageUrl);

  const linkUrl = site.url('/menu/linked');
  const link = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-link', linkUrl, pageUrl });
  expect(link).toMatchObject({ status: 'local' });
  expect(link?.shortUrl).toMatch(new RegExp(`^${ext.origin}/open\\.html#/[^/]+/$`));
  // Copied by the offscreen document: a service worker has no clipboard.
  await expect.poll(() => clipboardText(ext, page)).toBe(link?.shortUrl);

  const pageLink = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-page', pageUrl });
  expect(pageLink).toMatchObject({ status: 'local' });
  await expect.poll(() => clipboardText(ext, page)).toBe(pageLink?.shortUrl);

  // Not an http(s) URL: nothing is made (the user gets a notification instead).
  expect(
    await contextMenuClick(ext, { menuItemId: 'linklet-shorten-link', linkUrl: 'chrome://settings' }),
  ).toBeUndefined();

  const { popup, shortUrl } = await popupWithResult(ext, page);
  // The popup on the same page reuses the link the menu made for it.
  expect(shortUrl).toBe(pageLink?.shortUrl);
  expect((await historyItemFor(popup, linkUrl, 'local')).shortUrl).toBe(link?.shortUrl);
  expect((await historyItemFor(popup, pageUrl, 'local')).shortUrl).toBe(pageLink?.shortUrl);
  await popup.close();

  const visitor = await openTab(ext, link?.shortUrl ?? '');
  await visitor.waitForURL(linkUrl);
});
