import { readFile } from 'node:fs/promises';
import {
  contextMenuClick,
  expect,
  historyItemFor,
  openTab,
  popupWithResult,
  readHistory,
  setServer,
  test,
} from './fixtures.js';
import { launchExtension } from './launch-extension.js';

// The options page: the server, the connection test, uploading local links, export and import.

test('the connection test tells a Linklet server from a dead address and a bad URL', async ({ ext, companion }) => {
  const options = await openTab(ext, `${ext.origin}/options.html`);
  await options.locator('#server-url').fill(`${companion.url}/`);
  await options.locator('#test-connection').click();
  await expect(options.locator('#connection-result')).toHaveText(
    `Connected: Linklet answers at ${companion.url}/api/v1/shorten`,
  );
  await expect(options.locator('#connection-result')).toHaveAttribute('data-ok', 'true');

  await companion.stop();
  await options.locator('#test-connection').click();
  await expect(options.locator('#connection-result')).toContainText('No Linklet server there (unreachable');
  await expect(options.locator('#connection-result')).toHaveAttribute('data-ok', 'false');

  await options.locator('#server-url').fill('ftp://example.com');
  await options.locator('#test-connection').click();
  await expect(options.locator('#connection-result')).toContainText('Enter the server as a full http:// or https://');
  await options.locator('#save').click();
  await expect(options.locator('#connection-result')).toHaveAttribute('data-ok', 'false');
  await expect(options.locator('#options-status')).toHaveText('');
});

test('local links are uploaded to the server with their codes', async ({ ext, site, companion }) => {
  const pageUrl = site.url('/options/upload');
  const page = await openTab(ext, pageUrl);
  let { popup, shortUrl } = await popupWithResult(ext, page);
  await popup.close();
  const code = decodeURIComponent(new URL(shortUrl).hash.replace(/^#\//, '').replace(/\/$/, ''));
  expect(code).toMatch(/^[23456789a-hjkmnp-z]{7}$/);

  await setServer(ext, companion.url);
  const options = await openTab(ext, `${ext.origin}/options.html`);
  await options.locator('#upload-local').click();
  await expect(options.locator('#data-status')).toHaveText(
    '1 local links queued: 1 on the server, 0 still pending, 0 need your attention.',
  );
  expect(await companion.resolve(`${companion.url}/${code}/`)).toEqual({ status: 302, location: pageUrl });

  ({ popup, shortUrl } = await popupWithResult(ext, page));
  // Now a server link: the popup reuses it for the page.
  expect(shortUrl).toBe(`${companion.url}/${code}/`);
  expect((await historyItemFor(popup, pageUrl, 'synced')).shortUrl).toBe(`${companion.url}/${code}/`);
  await popup.close();
});

test('the history exports as JSON and imports into another profile, where its local links open', async ({
  ext,
  site,
}, testInfo) => {
  const pageUrl = site.url('/options/export-page');
  const linkUrl = site.url('/options/export-link');
  const page = await openTab(ext, pageUrl);
  const { popup, shortUrl: pageShort } = await popupWithResult(ext, page);
  await popup.close();
  const link = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-link', linkUrl });

  const options = await openTab(ext, `${ext.origin}/options.html`);
  const download = options.waitForEvent('download');
  await options.locator('#export').click();
  const file = testInfo.outputPath('linklet-history.json');
  const exported = await download;
  expect(exported.suggestedFilename()).toMatch(/^linklet-history-\d{4}-\d{2}-\d{2}\.json$/);
  await exported.saveAs(file);
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

  // A fresh profile: same unpacked extension, so the same id and the same short URLs.
  const other = await launchExtension();
  try {
    expect(other.extensionId).toBe(ext.extensionId);
    const otherOptions = await other.context.newPage();
    await otherOptions.goto(`${other.origin}/options.html`);
    await otherOptions.locator('#import').setInputFiles(file);
    await expect(otherOptions.locator('#data-status')).toHaveText(
      'Imported 2 links; 0 were already here; 0 local codes were taken here.',
    );
    // Importing the same file again adds nothing.
    await otherOptions.locator('#import').setInputFiles(file);
    await expect(otherOptions.locator('#data-status')).toHaveText(
      'Imported 0 links; 2 were already here; 0 local codes were taken here.',
    );

    const otherPage = await other.context.newPage();
    await otherPage.goto(site.url('/options/import-check'));
    const imported = await popupWithResult(other, otherPage);
    expect((await historyItemFor(imported.popup, pageUrl, 'local')).shortUrl).toBe(pageShort);
    expect((await historyItemFor(imported.popup, linkUrl, 'local')).shortUrl).toBe(link?.shortUrl);
    await expect.poll(async () => (await readHistory(imported.popup)).length).toBe(3);
    await imported.popup.close();

    // The imported local link opens in the new profile too.
    const visitor = await other.context.newPage();
    await visitor.goto(pageShort);
    await visitor.waitForURL(pageUrl);

    // A file that is not an export is refused with a message.
    await otherOptions.locator('#import').setInputFiles({
      name: 'not-history.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"links": []}'),
    });
    await expect(otherOptions.locator('#data-status')).toContainText('This is not a Linklet history file');
    await expect(otherOptions.locator('#data-status')).toHaveAttribute('data-ok', 'false');
  } finally {
    await other.close();
  }
});
