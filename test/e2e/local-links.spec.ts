import { expect, openTab, popupWithResult, test } from './fixtures.js';

// Local short links (no server) open in this browser through the extension's open.html page,
// which resolves the code on the bundled backend's IndexedDB store.

test('a local short link opens the original page; an unknown code shows the not-found page', async ({ ext, site }) => {
  const pageUrl = site.url('/landing?from=local-link');
  const page = await openTab(ext, pageUrl);
  const { popup, shortUrl } = await popupWithResult(ext, page);
  await popup.close();

  const visitor = await ext.context.newPage();
  await visitor.goto(shortUrl);
  await visitor.waitForURL(pageUrl);
  await expect(visitor).toHaveTitle('Test page /landing');
  const again = await ext.context.newPage();
  await again.goto(shortUrl);
  await again.waitForURL(pageUrl);

  const unknown = await ext.context.newPage();
  await unknown.goto(`${ext.origin}/open.html#/nosuch7/`);
  await expect(unknown.locator('#title')).toHaveText('No such short link');
  await expect(unknown).toHaveTitle('No such short link');
  await expect(unknown.locator('#detail')).toContainText('no local link with this code');
  expect(unknown.url()).toBe(`${ext.origin}/open.html#/nosuch7/`);

  // Each opening was a click, kept with the link in the bundled backend's store; the unknown code counted nothing.
  const codeKey = decodeURIComponent(shortUrl.split('#/')[1] ?? '').replace(/\/$/, '');
  const clicks = await unknown.evaluate(
    (key) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('linklet');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('links').objectStore('links').get(key);
          read.onerror = () => reject(read.error);
          read.onsuccess = () => resolve(read.result?.clicks);
        };
      }),
    codeKey,
  );
  expect(clicks).toBe(2);
});

test('a local link with a Hangul code opens too', async ({ ext, site }) => {
  const target = site.url('/hangul-target');
  const page = await openTab(ext, site.url('/hangul-start'));
  const { popup } = await popupWithResult(ext, page);
  await popup.fill('#url', target);
  await popup.fill('#code', '한글링크');
  await popup.click('#shorten');
  const shortUrl = await popup.waitFor<string>(
    `(() => { const v = document.querySelector('#short-url').value; return decodeURIComponent(v).endsWith('#/한글링크/') && v; })()`,
    'the Hangul short link',
  );
  await popup.close();

  const visitor = await ext.context.newPage();
  await visitor.goto(shortUrl);
  await visitor.waitForURL(target);
});
