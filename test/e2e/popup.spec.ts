import {
  clipboardText,
  expect,
  expectExpiresInDays,
  historyItemFor,
  openTab,
  popupError,
  popupWithResult,
  readHistory,
  test,
} from './fixtures.js';

// The popup, opened by a real toolbar click, in local mode: no server is set, so the bundled
// backend in the service worker makes the links.

test('one toolbar click shortens the tab and shows the short URL, expiry and history, but copies no local link', async ({
  ext,
  site,
}) => {
  const pageUrl = site.url('/articles/hello-linklet');
  const page = await openTab(ext, pageUrl);
  await ext.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
  await page.evaluate(() => navigator.clipboard.writeText('what the user copied before'));
  const { popup, shortUrl } = await popupWithResult(ext, page);

  // A local link: it opens through the extension's own page, code of 7 generated characters.
  expect(shortUrl).toMatch(new RegExp(`^${ext.origin}/open\\.html#/[23456789a-hjkmnp-z]{7}/$`));
  expect(await popup.evaluate(`document.querySelector('#mode').textContent`)).toBe('local');
  expect(await popup.evaluate(`document.querySelector('#result-state').dataset.status`)).toBe('local');
  expect(await popupError(popup)).toBe('');
  // Only this browser can open it: shown, not copied unasked, with the way to a real one.
  await popup.waitFor(
    `document.querySelector('#status').textContent === 'Not copied: only this browser can open this link.'`,
    'the not-copied status',
  );

  // No QR code for a local link: no phone can open it. It says so, with the way to set a server.
  expect(await popup.evaluate(`document.querySelector('#qr').hidden && !document.querySelector('#qr svg')`)).toBe(true);
  expect(await popup.evaluate(`document.querySelector('#result-state').textContent`)).toBe('Only in this browser');
  expect(await popup.evaluate(`document.querySelector('#result-local a').textContent`)).toBe(
    'Set a server to get links anyone can open',
  );
  // Said once: the first popup's note ends with that link, so the result's is not shown beside it.
  const shownSetServer = `[...document.querySelectorAll('a.set-server')].filter((a) => a.getClientRects().length > 0)`;
  expect(await popup.evaluate(`${shownSetServer}.map((a) => a.closest('section').id)`)).toEqual(['local-intro']);

  const expires = await popup.evaluate<{ iso: string; text: string }>(
    `({ iso: document.querySelector('#expires').dateTime, text: document.querySelector('#expires').textContent })`,
  );
  expectExpiresInDays(expires.iso, 7); // the default expiry is one week
  expect(expires.text).toMatch(/\d{4}/);

  const item = await historyItemFor(popup, pageUrl, 'local');
  expect(item.shortUrl).toBe(shortUrl);

  expect(popup.errors).toEqual([]);
  await popup.close();

  // The clipboard still holds what the user put there.
  expect(await clipboardText(ext, page)).toBe('what the user copied before');
});

test('reopening the popup on the same tab reuses its link and lists it once in the history', async ({ ext, site }) => {
  const pageUrl = site.url('/reopen');
  const page = await openTab(ext, pageUrl);
  const first = await popupWithResult(ext, page);
  await first.popup.close();

  const second = await popupWithResult(ext, page);
  expect(second.shortUrl).toBe(first.shortUrl);
  const item = await historyItemFor(second.popup, pageUrl);
  expect(item).toMatchObject({ shortUrl: first.shortUrl, status: 'local' });
  expect((await readHistory(second.popup)).filter((entry) => entry.originalUrl === pageUrl)).toHaveLength(1);
  expect(second.popup.errors).toEqual([]);
  await second.popup.close();
});

test('the popup marks the moment its URL field shows the tab (bench/popup-timing.mjs reads it)', async ({
  ext,
  site,
}) => {
  const pageUrl = site.url('/timed-page');
  const { popup } = await popupWithResult(ext, await openTab(ext, pageUrl));
  const shown = await popup.evaluate<{ marks: number; detail: unknown; field: string }>(`(() => {
    const marks = performance.getEntriesByName('linklet:url-shown', 'mark');
    return { marks: marks.length, detail: marks[0]?.detail, field: document.querySelector('#url').value };
  })()`);
  expect(shown).toEqual({ marks: 1, detail: pageUrl, field: pageUrl });
  await popup.close();
});

test('the form is usable from the keyboard: Tab reaches every field, Enter submits', async ({ ext, site }) => {
  const page = await openTab(ext, site.url('/keyboard'));
  const { popup } = await popupWithResult(ext, page);

  // Every form control has a label a screen reader announces.
  expect(
    await popup.evaluate(
      `['#url', '#code', '#expire', '#search'].every((s) => document.querySelector(s).labels.length > 0)`,
    ),
  ).toBe(true);

  const focused = () => popup.evaluate<string>(`document.activeElement ? document.activeElement.id : ''`);
  // After the one-click shorten, Copy has the focus (Enter or Space copies again).
  await expect.poll(focused).toBe('copy');
  // Start from the top of the page and Tab to the URL field.
  await popup.evaluate(`document.activeElement && document.activeElement.blur()`);
  let presses = 0;
  while ((await focused()) !== 'url' && presses < 10) {
    await popup.press('Tab');
    presses++;
  }
  expect(await focused(), 'Tab reaches the URL field').toBe('url');

  // Typing replaces the URL (Tab selected it); Enter in a field submits the form.
  const typedUrl = site.url('/typed-with-the-keyboard');
  await popup.insertText(typedUrl);
  await popup.press('Tab');
  expect(await focused()).toBe('code');
  await popup.insertText('kb-enter');
  await popup.press('Enter');
  await popup.waitFor(`document.querySelector('#short-url').value.endsWith('#/kb-enter/')`, 'the link made by Enter');
  await historyItemFor(popup, typedUrl, 'local');

  // Tab on to the Shorten button (past the expiry select) and press Enter on it.
  await popup.evaluate(`document.querySelector('#code').focus(); document.querySelector('#code').select()`);
  await popup.insertText('kb-button');
  await popup.press('Tab');
  expect(await focused()).toBe('expire');
  await popup.press('Tab');
  expect(await focused()).toBe('shorten');
  await popup.press('Enter');
  await popup.waitFor(
    `document.querySelector('#short-url').value.endsWith('#/kb-button/')`,
    'the link made by the button',
  );
  expect(await popupError(popup)).toBe('');
  expect(popup.errors).toEqual([]);
  await popup.close();
});
