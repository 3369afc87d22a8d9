import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectExpiresInDays, historyItemFor, readHistory } from '../fixtures.js';
import { contextMenuClick, expect, setServer, shortenWithForm, test } from './fixtures.js';

// The options page: the server and its connection test, the default expiry, uploading local
// links, export and import.

test('the connection test tells a Linklet server from a dead address and a bad URL', async ({ ext, companion }) => {
  const options = await ext.openTab(`${ext.origin}/options.html`);
  const result = () =>
    options.evaluate<{ text: string; ok: string }>(
      `(({ textContent, dataset }) => ({ text: textContent, ok: dataset.ok }))(document.querySelector('#connection-result'))`,
    );
  await options.fill('#server-url', `${companion.url}/`);
  await options.click('#test-connection');
  await expect
    .poll(result)
    .toEqual({ text: `Connected: Linklet answers at ${companion.url}/api/v1/shorten`, ok: 'true' });

  await companion.stop();
  await options.click('#test-connection');
  await expect.poll(async () => (await result()).text).toContain('Nothing answers at this address.');
  expect((await result()).ok).toBe('false');

  await options.fill('#server-url', 'ftp://example.com');
  await options.click('#test-connection');
  await expect.poll(async () => (await result()).text).toContain('Enter the server as a full http:// or https://');
  await options.click('#save');
  expect((await result()).ok).toBe('false');
  expect(await options.text('#options-status')).toBe('');
});

test('the default expiry and the server URL are kept and used by the popup', async ({ ext, site, companion }) => {
  const options = await ext.openTab(`${ext.origin}/options.html`);
  expect(await options.evaluate(`document.querySelector('#default-expire').value`)).toBe('1week');
  await options.fill('#default-expire', '24h');
  await options.fill('#server-url', companion.url);
  await options.click('#save');
  await options.waitFor(`document.querySelector('#options-status').textContent === 'Saved.'`, 'the settings saved');

  const reopened = await ext.openTab(`${ext.origin}/options.html`);
  await reopened.waitFor(`document.querySelector('#server-url').value !== ''`, 'the saved settings');
  expect(await reopened.evaluate(`document.querySelector('#server-url').value`)).toBe(companion.url);
  expect(await reopened.evaluate(`document.querySelector('#default-expire').value`)).toBe('24h');

  const popup = await ext.openPopup();
  expect(await popup.evaluate(`document.querySelector('#expire').value`)).toBe('24h');
  expect(await popup.text('#mode')).toBe(new URL(companion.url).host);
  const shortUrl = await shortenWithForm(popup, { url: site.url('/options/default-expiry') });
  expect(shortUrl).toMatch(new RegExp(`^${companion.url}/[^/]+/$`));
  expectExpiresInDays(await popup.evaluate<string>(`document.querySelector('#expires').dateTime`), 1);
});

test('local links are uploaded to the server with their codes', async ({ ext, site, companion }) => {
  const pageUrl = site.url('/options/upload');
  let popup = await ext.openPopup();
  const shortUrl = await shortenWithForm(popup, { url: pageUrl });
  const code = decodeURIComponent(new URL(shortUrl).hash.replace(/^#\//, '').replace(/\/$/, ''));
  expect(code).toMatch(/^[23456789a-hjkmnp-z]{7}$/);

  // A code someone else holds on the server: that link needs the user's attention.
  expect((await companion.shorten({ original_url: site.url('/elsewhere'), custom_code: 'held-there' })).status).toBe(
    201,
  );
  await shortenWithForm(popup, { url: site.url('/options/held'), code: 'held-there' });

  await setServer(ext, companion.url);
  const options = await ext.openTab(`${ext.origin}/options.html`);
  await options.click('#upload-local');
  // Not all went through: a warning's colour, not a success's.
  await options.waitFor(
    `document.querySelector('#data-status').textContent === '2 local links queued: 1 on the server, 0 still pending, 1 need your attention.' && document.querySelector('#data-status').dataset.ok === 'warn'`,
    'the upload report',
  );
  expect(await companion.resolve(`${companion.url}/${code}/`)).toEqual({ status: 302, location: pageUrl });

  popup = await ext.openPopup();
  expect((await historyItemFor(popup, pageUrl, 'synced')).shortUrl).toBe(`${companion.url}/${code}/`);
});

test('the history exports as JSON and imports into another profile, where its local links open', async ({
  ext,
  site,
  launch,
}) => {
  const pageUrl = site.url('/options/export-page');
  const linkUrl = site.url('/options/export-link');
  const popup = await ext.openPopup();
  const pageShort = await shortenWithForm(popup, { url: pageUrl });
  const link = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-link', linkUrl });

  const options = await ext.openTab(`${ext.origin}/options.html`);
  const file = await ext.download(options, '#export');
  expect(file).toMatch(/linklet-history-\d{4}-\d{2}-\d{2}\.json$/);
  const json = JSON.parse(await readFile(file, 'utf8')) as {
    format: string;
    version: number;
    links: Array<{ originalUrl: string; shortUrl: string; status: string }>;
  };
  expect(json).toMatchObject({ format: 'linklet-history', version: 1 });
  expect(json.links.map(({ originalUrl, shortUrl, status }) => ({ originalUrl, shortUrl, status }))).toEqual([
    { originalUrl: linkUrl, shortUrl: link?.shortUrl, status: 'local' },
    { originalUrl: pageUrl, shortUrl: pageShort, status: 'local' },
  ]);

  // A fresh profile: the same extension at the same address, so the same short URLs.
  const other = await launch();
  expect(other.origin).toBe(ext.origin);
  const otherOptions = await other.openTab(`${other.origin}/options.html`);
  const status = (text: string) =>
    otherOptions.waitFor(`document.querySelector('#data-status').textContent === ${JSON.stringify(text)}`, text);
  await otherOptions.setInputFile('#import', file);
  await status('Imported 2 links; 0 were already here; 0 local codes were taken here.');
  // Importing the same file again adds nothing.
  await otherOptions.setInputFile('#import', file);
  await status('Imported 0 links; 2 were already here; 0 local codes were taken here.');

  const imported = await other.openPopup();
  expect((await historyItemFor(imported, pageUrl, 'local')).shortUrl).toBe(pageShort);
  expect((await historyItemFor(imported, linkUrl, 'local')).shortUrl).toBe(link?.shortUrl);
  expect(await readHistory(imported)).toHaveLength(2);

  // The imported local link opens in the new profile too.
  const visitor = await other.openTab(pageShort);
  await visitor.waitForUrl(pageUrl);
});

test('the links export as Linklet CSV and import into another profile as local links that open', async ({
  ext,
  site,
  launch,
}) => {
  const pageUrl = site.url('/options/csv-page');
  const popup = await ext.openPopup();
  const shortUrl = await shortenWithForm(popup, { url: pageUrl, code: 'csvout' });

  const options = await ext.openTab(`${ext.origin}/options.html`);
  const file = await ext.download(options, '#export-csv');
  expect(file).toMatch(/linklet-links-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile(file, 'utf8')).split('\r\n');
  expect(lines[0]).toBe('\ufeffcode,short_url,original_url,created_at,expiration_date,status,clicks,title,tags');
  expect(lines[1]).toMatch(new RegExp(`^csvout,${escapeRegExp(shortUrl)},${escapeRegExp(pageUrl)},.*,active,0,,$`));

  const other = await launch();
  const otherOptions = await other.openTab(`${other.origin}/options.html`);
  await otherOptions.setInputFile('#import', file);
  await otherOptions.waitFor(
    `document.querySelector('#data-status').textContent === 'Read as a Linklet CSV file: imported 1 of 1 link into this browser.' && document.querySelector('#data-status').dataset.ok === 'true'`,
    'the import report',
  );
  // The same file again: already here, nothing refused, so still a success.
  await otherOptions.setInputFile('#import', file);
  await otherOptions.waitFor(
    `document.querySelector('#data-status').textContent === 'Read as a Linklet CSV file: imported 0 of 1 link into this browser. Already here: 1 · code in use: 0 · not valid: 0 · skipped: 0.' && document.querySelector('#data-status').dataset.ok === 'true'`,
    'the second import report',
  );
  // Nothing imported: an error, and why, row by row.
  const refused = join(tmpdir(), `refused-${process.pid}.csv`);
  await writeFile(refused, `${lines[0]}\r\nno spaces,,${pageUrl},,,active,0,,\r\n`);
  await otherOptions.setInputFile('#import', refused);
  await otherOptions.waitFor(
    `document.querySelector('#data-status').dataset.ok === 'false' && document.querySelector('#import-problems li')?.textContent === 'no spaces: A code may use letters, digits, Hangul, _ and - only; choose another.'`,
    'the refused import report',
  );

  const imported = await other.openPopup();
  expect((await historyItemFor(imported, pageUrl, 'local')).shortUrl).toBe(shortUrl);
  const visitor = await other.openTab(shortUrl);
  await visitor.waitForUrl(pageUrl);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
