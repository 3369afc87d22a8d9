import { contextMenuClick, expect, openTab, popupWithResult, test } from './fixtures.js';

// The menu's handler in both browsers is in cross-browser/menu-and-shortcut.spec.ts. Only Chromium's
// toolbar click can show the popup on the very page the menu shortened: it reuses that link.

test('the popup opened on a page the menu shortened reuses its link', async ({ ext, site }) => {
  const pageUrl = site.url('/menu/page');
  const page = await openTab(ext, pageUrl);
  const pageLink = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-page', pageUrl });
  expect(pageLink).toMatchObject({ status: 'local' });

  const { popup, shortUrl } = await popupWithResult(ext, page);
  expect(shortUrl).toBe(pageLink?.shortUrl);
  await popup.close();
});
