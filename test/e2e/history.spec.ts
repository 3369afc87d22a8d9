import {
  clipboardText,
  contextMenuClick,
  expect,
  historyItemFor,
  openTab,
  popupWithResult,
  readHistory,
  test,
} from './fixtures.js';
import { openPopup } from './popup-driver.js';

// The popup's history: search, copy, open and delete, each button labelled with its link.

test('history search filters, copy and open work, delete removes the link', async ({ ext, site }) => {
  const alpha = site.url('/history/alpha');
  const beta = site.url('/history/beta');
  const gamma = site.url('/history/gamma');
  const made: Record<string, { shortUrl: string; code: string }> = {};
  for (const url of [alpha, beta, gamma]) {
    const entry = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-link', linkUrl: url });
    if (!entry) throw new Error(`the menu handler made no link for ${url}`);
    made[url] = entry;
  }
  const home = site.url('/history/home');
  const page = await openTab(ext, home);
  let { popup } = await popupWithResult(ext, page);
  const originals = async () => (await readHistory(popup)).map((item) => item.originalUrl);
  // The list is refreshed once more after the result shows: poll until it has the page's link.
  await expect.poll(originals).toEqual([home, gamma, beta, alpha]);

  // Every item has copy, open and delete, each naming its link for screen readers.
  for (const item of await readHistory(popup)) {
    expect(item.buttons).toEqual([
      { action: 'copy', label: `Copy: ${item.shortUrl}` },
      { action: 'open', label: `Open: ${item.shortUrl}` },
      { action: 'delete', label: `Delete: ${item.shortUrl}` },
    ]);
  }

  // Search matches the original URL, the code or the short URL, ignoring case.
  await popup.fill('#search', 'ALPHA');
  await expect.poll(originals).toEqual([alpha]);
  await popup.fill('#search', made[beta]?.code ?? '');
  await expect.poll(originals).toEqual([beta]);
  await popup.fill('#search', 'no-such-link');
  await expect.poll(originals).toEqual([]);
  expect(await popup.evaluate(`document.querySelector('#history-empty').hidden`)).toBe(false);
  await popup.fill('#search', '/history/');
  await expect.poll(originals).toEqual([home, gamma, beta, alpha]);

  // Copy: the clipboard holds that item's short URL.
  const item = (url: string) =>
    `[...document.querySelectorAll('#history .history-item')].find((li) => li.querySelector('.original-url').textContent === ${JSON.stringify(url)})`;
  await popup.evaluate(`${item(beta)}.querySelector('button.copy').click()`);
  await popup.waitFor(
    `document.querySelector('#status').textContent === 'Copied to the clipboard.'`,
    'the copied status',
  );

  // Delete: gone from the list, and the local link no longer opens.
  await popup.evaluate(`${item(gamma)}.querySelector('button.delete').click()`);
  await expect.poll(originals).toEqual([home, beta, alpha]);
  expect(await popup.evaluate(`document.querySelector('#status').textContent`)).toBe('Removed from the history.');
  expect(popup.errors).toEqual([]);

  // Open: a new tab with the short link, which lands on the original. The popup loses focus
  // and may close, so it is reopened below.
  const opened = ext.context.waitForEvent('page');
  await popup.evaluate(`${item(alpha)}.querySelector('button.open').click()`);
  const tab = await opened;
  await tab.waitForURL(alpha);
  await popup.close();

  expect(await clipboardText(ext, page)).toBe(made[beta]?.shortUrl);

  const deleted = await openTab(ext, made[gamma]?.shortUrl ?? '');
  await expect(deleted.locator('#title')).toHaveText('No such short link');

  ({ popup } = await popupWithResult(ext, page));
  await expect.poll(originals).toEqual([home, beta, alpha]);
  await popup.close();
});

test('the popup on a page that cannot be shortened asks for a URL and still lists the history', async ({
  ext,
  site,
}) => {
  const linked = site.url('/history/linked');
  await contextMenuClick(ext, { menuItemId: 'linklet-shorten-link', linkUrl: linked });
  const page = await openTab(ext, 'about:blank#not-a-web-page');
  const popup = await openPopup(ext, page);
  await popup.waitFor(
    `document.querySelector('#status').textContent.startsWith('Only http and https pages can be shortened')`,
    'the not-shortenable status',
  );
  expect(await popup.evaluate(`document.querySelector('#result').hidden`)).toBe(true);
  expect(await popup.evaluate(`document.activeElement.id`)).toBe('url');
  await historyItemFor(popup, linked, 'local');
  await popup.close();
});
