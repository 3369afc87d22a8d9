import {
  expect,
  historyItemFor,
  openTab,
  popupError,
  popupWithResult,
  readHistory,
  setServer,
  syncNow,
  test,
} from './fixtures.js';
import { openPopup } from './popup-driver.js';

// Synced mode against a real companion server (`node dist/server/main.js` on SQLite), started by
// each test on a free port.

test('with a server set, the popup makes the link on the server and it redirects there', async ({
  ext,
  site,
  companion,
}) => {
  await setServer(ext, companion.url);
  const pageUrl = site.url('/synced/page');
  const page = await openTab(ext, pageUrl);
  const { popup, shortUrl } = await popupWithResult(ext, page);

  expect(shortUrl).toMatch(new RegExp(`^${companion.url}/[^/]+/$`));
  expect(await popup.evaluate(`document.querySelector('#mode').textContent`)).toBe(new URL(companion.url).host);
  expect(await popup.evaluate(`document.querySelector('#result-state').dataset.status`)).toBe('synced');
  expect((await historyItemFor(popup, pageUrl, 'synced')).shortUrl).toBe(shortUrl);
  expect(await companion.resolve(shortUrl)).toEqual({ status: 302, location: pageUrl });

  // A custom code on the server, from the form.
  await popup.fill('#code', 'e2e-synced');
  await popup.click('#shorten');
  await popup.waitFor(
    `document.querySelector('#short-url').value === ${JSON.stringify(`${companion.url}/e2e-synced/`)}`,
    'the custom link on the server',
  );
  expect(await companion.resolve(`${companion.url}/e2e-synced`)).toEqual({ status: 302, location: pageUrl });
  expect(popup.errors).toEqual([]);
  await popup.close();
});

test('a link made while the server is down stays pending and syncs when it is back', async ({
  ext,
  site,
  companion,
}) => {
  await setServer(ext, companion.url);
  await companion.stop();

  const pageUrl = site.url('/synced/offline');
  const page = await openTab(ext, pageUrl);
  const first = await popupWithResult(ext, page);
  // The code is reserved locally and the short URL is already the server's.
  expect(first.shortUrl).toMatch(new RegExp(`^${companion.url}/[^/]+/$`));
  expect(await first.popup.evaluate(`document.querySelector('#result-state').dataset.status`)).toBe('pending');
  expect(await first.popup.evaluate(`document.querySelector('#result-message').hidden`)).toBe(false);
  expect(await popupError(first.popup)).toBe('');
  await historyItemFor(first.popup, pageUrl, 'pending');
  await first.popup.close();

  // Back on the same port and database; reopening the popup asks the background to sync. (The
  // wait stays under the 30 s retry alarm, so it is the popup that made it sync.)
  await companion.start();
  const second = await popupWithResult(ext, page);
  expect(second.shortUrl).toBe(first.shortUrl);
  const synced = await historyItemFor(second.popup, pageUrl, 'synced', 20_000);
  expect(synced.shortUrl).toBe(first.shortUrl);
  expect(await companion.resolve(first.shortUrl)).toEqual({ status: 302, location: pageUrl });
  expect(second.popup.errors).toEqual([]);
  await second.popup.close();
});

test('a pending link is pushed by the background sync without the popup', async ({ ext, site, companion }) => {
  await setServer(ext, companion.url);
  await companion.stop();
  const pageUrl = site.url('/synced/background');
  const page = await openTab(ext, pageUrl);
  const { popup, shortUrl } = await popupWithResult(ext, page);
  await historyItemFor(popup, pageUrl, 'pending');
  await popup.close();

  await companion.start();
  expect(await syncNow(ext)).toMatchObject({ synced: 1, pending: 0 });
  expect(await companion.resolve(shortUrl)).toEqual({ status: 302, location: pageUrl });
});

test('a code taken on the server is refused with its 409 message; a pending one becomes a conflict', async ({
  ext,
  site,
  companion,
}) => {
  const taken = await companion.shorten({ original_url: 'https://example.com/someone-else', custom_code: 'e2e-taken' });
  expect(taken.status).toBe(201);
  await setServer(ext, companion.url);

  const pageUrl = site.url('/synced/conflict');
  const page = await openTab(ext, pageUrl);
  let { popup } = await popupWithResult(ext, page);
  await popup.fill('#code', 'e2e-taken');
  await popup.click('#shorten');
  await expect.poll(() => popupError(popup)).toContain("custom_code 'e2e-taken' is already in use");
  expect((await readHistory(popup)).some((item) => item.shortUrl.includes('e2e-taken'))).toBe(false);
  expect(await companion.resolve(`${companion.url}/e2e-taken/`)).toEqual({
    status: 302,
    location: 'https://example.com/someone-else',
  });

  // Made while the server is down, then taken there by someone else before the sync.
  await popup.close();
  await companion.stop();
  const laterUrl = site.url('/synced/clash');
  const later = await openTab(ext, laterUrl);
  ({ popup } = await popupWithResult(ext, later));
  await popup.fill('#code', 'e2e-clash');
  await popup.click('#shorten');
  await popup.waitFor(`document.querySelector('#short-url').value.endsWith('/e2e-clash/')`, 'the pending custom link');
  await historyItemFor(popup, laterUrl, 'pending');
  await popup.close();

  await companion.start();
  expect(
    (await companion.shorten({ original_url: 'https://example.com/first', custom_code: 'e2e-clash' })).status,
  ).toBe(201);
  ({ popup } = await popupWithResult(ext, later));
  await expect
    .poll(async () => (await readHistory(popup)).find((item) => item.shortUrl === `${companion.url}/e2e-clash/`), {
      timeout: 20_000,
    })
    .toMatchObject({ status: 'conflict' });
  const conflict = (await readHistory(popup)).find((item) => item.shortUrl === `${companion.url}/e2e-clash/`);
  expect(conflict?.buttons.map((button) => button.action)).toEqual(['copy', 'open', 'retry', 'new-code', 'delete']);
  expect(
    await popup.evaluate(
      `[...document.querySelectorAll('#history .history-item[data-status="conflict"] .message')].map((e) => e.textContent).join()`,
    ),
  ).toContain("custom_code 'e2e-clash' is already in use");

  // The user resolves it with a new code: the server picks one and the link syncs.
  await popup.evaluate(
    `document.querySelector('#history .history-item[data-status="conflict"] button.new-code').click()`,
  );
  await expect
    .poll(
      async () =>
        (await readHistory(popup)).filter((item) => item.originalUrl === laterUrl && item.status === 'synced'),
      {
        timeout: 20_000,
      },
    )
    .toHaveLength(1);
  const resolved = (await readHistory(popup)).find((item) => item.originalUrl === laterUrl && item.status === 'synced');
  expect(resolved?.shortUrl).not.toBe(`${companion.url}/e2e-clash/`);
  expect(await companion.resolve(resolved?.shortUrl ?? '')).toEqual({ status: 302, location: laterUrl });
  await popup.close();
});

test('the popup still works when the server URL is cleared again (back to local mode)', async ({
  ext,
  site,
  companion,
}) => {
  await setServer(ext, companion.url);
  const options = await openTab(ext, `${ext.origin}/options.html`);
  await expect(options.locator('#server-url')).toHaveValue(companion.url);
  await options.locator('#server-url').fill('');
  await options.locator('#save').click();
  await expect(options.locator('#options-status')).toHaveText('Saved.');
  const page = await openTab(ext, site.url('/synced/back-to-local'));
  const popup = await openPopup(ext, page);
  const shortUrl = await popup.waitFor<string>(`document.querySelector('#short-url').value`, 'a short URL');
  expect(shortUrl.startsWith(`${ext.origin}/open.html#/`)).toBe(true);
  expect(await popup.evaluate(`document.querySelector('#mode').textContent`)).toBe('local');
  await popup.close();
});
