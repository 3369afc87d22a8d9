import { historyItemFor, popupError, readHistory } from '../fixtures.js';
import { expect, setServer, shortenWithForm, syncNow, test } from './fixtures.js';

// Synced mode against a real companion server (`node dist/server/main.js` on SQLite), started by
// each test on a free port.

test('with a server set, the popup makes the link on the server and it redirects there', async ({
  ext,
  site,
  companion,
}) => {
  await setServer(ext, companion.url);
  const pageUrl = site.url('/synced/page');
  const popup = await ext.openPopup();
  expect(await popup.text('#mode')).toBe(new URL(companion.url).host);
  const shortUrl = await shortenWithForm(popup, { url: pageUrl });

  expect(shortUrl).toMatch(new RegExp(`^${companion.url}/[^/]+/$`));
  expect(await popup.evaluate(`document.querySelector('#result-state').dataset.status`)).toBe('synced');
  expect((await historyItemFor(popup, pageUrl, 'synced')).shortUrl).toBe(shortUrl);
  expect(await companion.resolve(shortUrl)).toEqual({ status: 302, location: pageUrl });

  // A custom code on the server, from the form.
  expect(await shortenWithForm(popup, { url: pageUrl, code: 'e2e-synced' })).toBe(`${companion.url}/e2e-synced/`);
  expect(await companion.resolve(`${companion.url}/e2e-synced`)).toEqual({ status: 302, location: pageUrl });
  expect(popup.errors).toEqual([]);
});

test('a link made while the server is down stays pending and syncs when it is back', async ({
  ext,
  site,
  companion,
}) => {
  await setServer(ext, companion.url);
  await companion.stop();

  const pageUrl = site.url('/synced/offline');
  const first = await ext.openPopup();
  // The code is reserved locally and the short URL is already the server's.
  const shortUrl = await shortenWithForm(first, { url: pageUrl });
  expect(shortUrl).toMatch(new RegExp(`^${companion.url}/[^/]+/$`));
  expect(await first.evaluate(`document.querySelector('#result-state').dataset.status`)).toBe('pending');
  expect(await first.evaluate(`document.querySelector('#result-message').hidden`)).toBe(false);
  expect(await popupError(first)).toBe('');
  // It does not exist yet: no Copy, no QR code, no downloads; the popup says when it will.
  expect(
    await first.evaluate(`[
      document.querySelector('#copy').hidden,
      document.querySelector('#qr').hidden && !document.querySelector('#qr svg'),
      document.querySelector('#qr-download').hidden && !document.querySelector('#qr-download button'),
      document.querySelector('#result-message').textContent,
      document.querySelector('#status').textContent,
    ]`),
  ).toEqual([
    true,
    true,
    true,
    'The server is not answering. This short URL does not exist yet: Linklet makes it when the server answers, and then you can copy it and get its QR code.',
    'Not copied yet: this short URL is made when the server answers.',
  ]);
  const pending = await historyItemFor(first, pageUrl, 'pending');
  expect(pending.buttons.map((button) => button.action)).not.toContain('copy');
  expect(pending.buttons.map((button) => button.action)).not.toContain('open');
  await first.close();

  // Back on the same port and database; opening the popup asks the background to sync. (The
  // wait stays under the 30 s retry alarm, so it is the popup that made it sync.)
  await companion.start();
  const second = await ext.openPopup();
  const synced = await historyItemFor(second, pageUrl, 'synced', 20_000);
  expect(synced.shortUrl).toBe(shortUrl);
  // Made now: it can be copied.
  expect(synced.buttons.map((button) => button.action)).toContain('copy');
  expect(await companion.resolve(shortUrl)).toEqual({ status: 302, location: pageUrl });
  expect(second.errors).toEqual([]);
});

test('a pending link is pushed by the background sync without the popup', async ({ ext, site, companion }) => {
  await setServer(ext, companion.url);
  await companion.stop();
  const pageUrl = site.url('/synced/background');
  const popup = await ext.openPopup();
  const shortUrl = await shortenWithForm(popup, { url: pageUrl });
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
  let popup = await ext.openPopup();
  await popup.fill('#url', pageUrl);
  await popup.fill('#code', 'e2e-taken');
  await popup.click('#shorten');
  // In people's words, not the API's ("custom_code 'e2e-taken' is already in use").
  await expect.poll(() => popupError(popup)).toContain('That code is taken');
  expect((await readHistory(popup)).some((item) => item.shortUrl.includes('e2e-taken'))).toBe(false);
  expect(await companion.resolve(`${companion.url}/e2e-taken/`)).toEqual({
    status: 302,
    location: 'https://example.com/someone-else',
  });

  // Made while the server is down, then taken there by someone else before the sync.
  await popup.close();
  await companion.stop();
  const laterUrl = site.url('/synced/clash');
  popup = await ext.openPopup();
  expect(await shortenWithForm(popup, { url: laterUrl, code: 'e2e-clash' })).toBe(`${companion.url}/e2e-clash/`);
  await historyItemFor(popup, laterUrl, 'pending');
  await popup.close();

  await companion.start();
  expect(
    (await companion.shorten({ original_url: 'https://example.com/first', custom_code: 'e2e-clash' })).status,
  ).toBe(201);
  popup = await ext.openPopup();
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
  ).toContain('That code is taken'); // the API's "custom_code 'e2e-clash' is already in use", in people's words

  // The user resolves it with a new code: the server picks one and the link syncs.
  await popup.click('#history .history-item[data-status="conflict"] button.new-code');
  const syncedOnly = async () =>
    (await readHistory(popup)).filter((item) => item.originalUrl === laterUrl && item.status === 'synced');
  await expect.poll(syncedOnly, { timeout: 20_000 }).toHaveLength(1);
  const [resolved] = await syncedOnly();
  expect(resolved?.shortUrl).not.toBe(`${companion.url}/e2e-clash/`);
  expect(await companion.resolve(resolved?.shortUrl ?? '')).toEqual({ status: 302, location: laterUrl });
});

test('the popup makes local links again when the server URL is cleared', async ({ ext, site, companion }) => {
  await setServer(ext, companion.url);
  const options = await ext.openTab(`${ext.origin}/options.html`);
  await options.waitFor(`document.querySelector('#server-url').value === ${JSON.stringify(companion.url)}`, 'the URL');
  await options.fill('#server-url', '');
  await options.click('#save');
  await options.waitFor(`document.querySelector('#options-status').textContent === 'Saved.'`, 'the settings saved');
  const popup = await ext.openPopup();
  expect(await popup.text('#mode')).toBe('local');
  const shortUrl = await shortenWithForm(popup, { url: site.url('/synced/back-to-local') });
  expect(shortUrl.startsWith(`${ext.origin}/open.html#/`)).toBe(true);
});
