import { expectExpiresInDays, historyItemFor, popupError, readHistory } from '../fixtures.js';
import { expect, shortenWithForm, test } from './fixtures.js';

// The popup's form in local mode (no server: the bundled backend makes the links), and the local
// links it makes, which open through the extension's open.html page.

test('the form makes local links: generated or custom code, any expiry; API errors in words for people', async ({
  ext,
  site,
}) => {
  const popup = await ext.openPopup();
  // Opened on no web page: it asks for a URL instead of shortening.
  expect(await popup.text('#status')).toMatch(/^Only http and https pages can be shortened/);
  expect(await popup.evaluate(`document.querySelector('#result').hidden`)).toBe(true);
  expect(await popup.evaluate(`document.activeElement.id`)).toBe('url');
  expect(await popup.text('#mode')).toBe('local');

  const pageUrl = site.url('/form-page');
  const generated = await shortenWithForm(popup, { url: pageUrl });
  expect(generated).toMatch(new RegExp(`^${ext.origin}/open\\.html#/[23456789a-hjkmnp-z]{7}/$`));
  expect(await popup.evaluate(`document.querySelector('#result-state').dataset.status`)).toBe('local');
  expectExpiresInDays(await popup.evaluate<string>(`document.querySelector('#expires').dateTime`), 7);
  // A local link gets no QR code (no other device can open it).
  expect(await popup.evaluate(`document.querySelector('#qr').hidden && !document.querySelector('#qr svg')`)).toBe(true);

  const custom = await shortenWithForm(popup, { url: pageUrl, code: 'e2e-promo', expire: '24h' });
  expect(custom).toBe(`${ext.origin}/open.html#/e2e-promo/`);
  expectExpiresInDays(await popup.evaluate<string>(`document.querySelector('#expires').dateTime`), 1);
  expect(await popupError(popup)).toBe('');
  // Both links of the page are in the history, newest first.
  await expect
    .poll(async () =>
      (await readHistory(popup)).filter((item) => item.originalUrl === pageUrl).map((item) => item.shortUrl),
    )
    .toEqual([custom, generated]);
  expect((await historyItemFor(popup, pageUrl, 'local')).shortUrl).toBe(custom);

  // The same code again: the 409 in words, and when the code becomes free (a day from now); the
  // previous result is gone, so it cannot pass for this attempt's.
  await popup.click('#shorten');
  const error = await popup.waitFor<string>(
    `!document.querySelector('#error').hidden && document.querySelector('#error').textContent`,
    'the conflict error',
  );
  expect(error).toContain('That code is taken; choose another.');
  expect(error).toContain(`It can be used after ${await popup.text('#expires')}`);
  expect(error).not.toContain('custom_code');
  expect(await popup.evaluate(`document.querySelector('#error').getAttribute('role')`)).toBe('alert');
  expect(await popup.evaluate(`document.querySelector('#result').hidden`)).toBe(true);

  // Bad input: the backend's rule, in the popup's words (never its field names); a success
  // clears the error. A URL typed without a scheme is taken as https://.
  await popup.fill('#code', '');
  await popup.fill('#url', 'not a url');
  await popup.click('#shorten');
  await expect.poll(() => popupError(popup)).toBe('A web address cannot contain spaces. Remove them and try again.');
  // Only what looks like a host gets https:// added; words with spaces are left as typed.
  expect(await popup.evaluate(`document.querySelector('#url').value`)).toBe('not a url');

  await popup.fill('#url', 'ftp://example.com/file');
  await popup.click('#shorten');
  await expect
    .poll(() => popupError(popup))
    .toBe('Enter a web address that starts with https://, such as https://example.com/page.');

  await popup.fill('#url', pageUrl);
  await popup.fill('#code', 'no spaces');
  await popup.click('#shorten');
  await expect
    .poll(() => popupError(popup))
    .toBe('A code may use letters, digits, Hangul, _ and - only; choose another.');

  await popup.fill('#url', '');
  await popup.click('#shorten');
  await expect.poll(() => popupError(popup)).toBe('Enter the URL to shorten.');

  await shortenWithForm(popup, { url: pageUrl, code: 'e2e-second', expire: '1month' });
  const monthLater = Date.parse(await popup.evaluate<string>(`document.querySelector('#expires').dateTime`));
  const days = (monthLater - Date.now()) / (24 * 60 * 60 * 1000);
  expect(days).toBeGreaterThan(27);
  expect(days).toBeLessThan(32);
  expect(await popupError(popup)).toBe('');
  expect(popup.errors).toEqual([]);
});

test('a local short link opens the original page; an unknown code shows the not-found page', async ({ ext, site }) => {
  const pageUrl = site.url('/landing?from=local-link');
  const popup = await ext.openPopup();
  const shortUrl = await shortenWithForm(popup, { url: pageUrl });

  const visitor = await ext.openTab(shortUrl);
  await visitor.waitForUrl(pageUrl);
  expect(await visitor.evaluate('document.title')).toBe('Test page /landing');

  const unknown = await ext.openTab(`${ext.origin}/open.html#/nosuch7/`);
  await unknown.waitFor(`document.querySelector('#title').textContent === 'No such short link'`, 'the not-found page');
  expect(await unknown.evaluate('document.title')).toBe('No such short link');
  expect(await unknown.text('#detail')).toContain('no local link with this code');
  expect(await unknown.url()).toBe(`${ext.origin}/open.html#/nosuch7/`);
});

test('a local link with a Hangul code opens too', async ({ ext, site }) => {
  const target = site.url('/hangul-target');
  const popup = await ext.openPopup();
  const shortUrl = await shortenWithForm(popup, { url: target, code: '한글링크' });
  expect(decodeURIComponent(shortUrl)).toBe(`${ext.origin}/open.html#/한글링크/`);
  const visitor = await ext.openTab(shortUrl);
  await visitor.waitForUrl(target);
});
