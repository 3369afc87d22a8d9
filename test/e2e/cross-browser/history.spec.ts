import { readHistory } from '../fixtures.js';
import { contextMenuClick, expect, shortenWithForm, test } from './fixtures.js';

// The popup's history: search, copy, open and delete, each button labelled with its link. The
// links come from the context-menu handler in the background and from the popup's form.

test('history search filters, copy and open work, delete removes the link', async ({ ext, site }) => {
  const alpha = site.url('/history/alpha');
  const beta = site.url('/history/beta');
  const gamma = site.url('/history/gamma');
  const made: Record<string, { shortUrl: string; code: string }> = {};
  for (const url of [alpha, beta, gamma]) {
    const entry = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-link', linkUrl: url });
    if (!entry) throw new Error(`the menu handler made no link for ${url}`);
    expect(entry).toMatchObject({ status: 'local' });
    made[url] = entry;
  }
  // Not an http(s) URL: nothing is made (the user gets a notification instead).
  expect(await contextMenuClick(ext, { menuItemId: 'linklet-shorten-link', linkUrl: 'about:config' })).toBeUndefined();

  const home = site.url('/history/home');
  const sitePage = await ext.openTab(home);
  const popup = await ext.openPopup();
  await shortenWithForm(popup, { url: home });
  const originals = async () => (await readHistory(popup)).map((item) => item.originalUrl);
  await expect.poll(originals).toEqual([home, gamma, beta, alpha]);

  // Every item has copy, open, renew (a live link too) and delete, each naming its link for screen readers.
  for (const item of await readHistory(popup)) {
    expect(item.status).toBe('local');
    expect(item.buttons).toEqual([
      { action: 'copy', label: `Copy: ${item.shortUrl}` },
      { action: 'open', label: `Open: ${item.shortUrl}` },
      { action: 'renew', label: `Renew: ${item.shortUrl}` },
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
  // Delete asks first, in the link's item, and says where it acts: a local link leaves this browser.
  await popup.evaluate(`${item(gamma)}.querySelector('button.delete').click()`);
  expect(await popup.evaluate(`${item(gamma)}.querySelector('.confirm-delete p').textContent`)).toBe(
    `Remove ${made[gamma]?.shortUrl} from this browser? It will no longer open here.`,
  );
  await popup.evaluate(`${item(gamma)}.querySelector('.confirm-yes').click()`);
  await expect.poll(originals).toEqual([home, beta, alpha]);
  expect(await popup.text('#status')).toBe('Removed from this browser.');
  expect(popup.errors).toEqual([]);

  // Open: a new tab with the short link, which lands on the original. (Chromium's popup loses
  // the focus to it and may close: it is not used after this.)
  await popup.evaluate(`${item(alpha)}.querySelector('button.open').click()`);
  await ext.waitForTab(alpha);

  expect(await ext.clipboardText(sitePage)).toBe(made[beta]?.shortUrl);

  const deleted = await ext.openTab(made[gamma]?.shortUrl ?? '');
  await deleted.waitFor(`document.querySelector('#title').textContent === 'No such short link'`, 'the not-found page');

  const again = await ext.openPopup();
  await expect
    .poll(async () => (await readHistory(again)).map((entry) => entry.originalUrl))
    .toEqual([home, beta, alpha]);
});
