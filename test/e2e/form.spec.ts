import { expect, expectExpiresInDays, openTab, popupError, popupWithResult, readHistory, test } from './fixtures.js';

// The popup's form: a custom code and an expiry, and every API error shown with its message.

test('a custom code and expiry from the form; a taken code and bad input show the API message', async ({
  ext,
  site,
}) => {
  const pageUrl = site.url('/form-page');
  const page = await openTab(ext, pageUrl);
  const { popup, shortUrl: first } = await popupWithResult(ext, page);

  await popup.fill('#code', 'e2e-promo');
  await popup.fill('#expire', '24h');
  await popup.click('#shorten');
  const shortUrl = await popup.waitFor<string>(
    `(() => { const v = document.querySelector('#short-url').value; return v.endsWith('#/e2e-promo/') && v; })()`,
    'the link with the custom code',
  );
  expect(shortUrl).toBe(`${ext.origin}/open.html#/e2e-promo/`);
  expect(shortUrl).not.toBe(first);
  expectExpiresInDays(await popup.evaluate<string>(`document.querySelector('#expires').dateTime`), 1);
  expect(await popupError(popup)).toBe('');
  // Both links of the page are in the history, newest first.
  await expect
    .poll(async () =>
      (await readHistory(popup)).filter((item) => item.originalUrl === pageUrl).map((item) => item.shortUrl),
    )
    .toEqual([shortUrl, first]);

  // The same code again: the 409 message, and when the code becomes free (a day from now).
  await popup.click('#shorten');
  const error = await popup.waitFor<string>(
    `!document.querySelector('#error').hidden && document.querySelector('#error').textContent`,
    'the conflict error',
  );
  expect(error).toContain("custom_code 'e2e-promo' is already in use");
  const expiresText = await popup.evaluate<string>(`document.querySelector('#expires').textContent`);
  expect(error).toContain(`It can be used after ${expiresText}`);
  expect(await popup.evaluate(`document.querySelector('#error').getAttribute('role')`)).toBe('alert');
  expect(await popup.evaluate(`document.querySelector('#short-url').value`)).toBe(shortUrl);

  // Bad input: the backend's rule, shown as it words it; a success clears the error.
  await popup.fill('#code', '');
  await popup.fill('#url', 'not a url');
  await popup.click('#shorten');
  await expect.poll(() => popupError(popup)).toContain('original_url must not contain whitespace');

  await popup.fill('#url', 'ftp://example.com/file');
  await popup.click('#shorten');
  await expect.poll(() => popupError(popup)).toBe('original_url must use http or https, not ftp.');

  await popup.fill('#url', pageUrl);
  await popup.fill('#code', 'no spaces');
  await popup.click('#shorten');
  await expect.poll(() => popupError(popup)).toContain('custom_code may only contain');

  await popup.fill('#url', '');
  await popup.click('#shorten');
  await expect.poll(() => popupError(popup)).toBe('Enter the URL to shorten.');

  await popup.fill('#url', pageUrl);
  await popup.fill('#code', 'e2e-second');
  await popup.fill('#expire', '1month');
  await popup.click('#shorten');
  await popup.waitFor(`document.querySelector('#short-url').value.endsWith('#/e2e-second/')`, 'the second custom link');
  const monthLater = Date.parse(await popup.evaluate<string>(`document.querySelector('#expires').dateTime`));
  const days = (monthLater - Date.now()) / (24 * 60 * 60 * 1000);
  expect(days).toBeGreaterThan(27);
  expect(days).toBeLessThan(32);
  expect(await popupError(popup)).toBe('');
  expect(popup.errors).toEqual([]);
  await popup.close();
});
