import { expect, historyItemFor, openTab, popupWithResult, test } from './fixtures.js';
import { openPopup } from './popup-driver.js';

// A local short link opens through the extension's open page, which asks the background: the
// background resolves the code and counts the click, and the page goes on or says why not.

test('a local link opens its page, and the opening shows as a click in the popup', async ({ ext, site }) => {
  const pageUrl = site.url('/open-local/spring-sale');
  const page = await openTab(ext, pageUrl);
  const made = await popupWithResult(ext, page);
  await made.popup.close();

  const visitor = await ext.context.newPage();
  await visitor.goto(made.shortUrl);
  await visitor.waitForURL(pageUrl);
  // One tab per URL for the popup driver: the visitor has done its part.
  await visitor.close();

  const popup = await openPopup(ext, page);
  await historyItemFor(popup, pageUrl, 'local');
  await popup.waitFor(
    `[...document.querySelectorAll('#history .history-item')].some((item) => item.querySelector('.clicks')?.textContent === '1 click')`,
    'one click on the local link',
  );
  expect(popup.errors).toEqual([]);
  await popup.close();
});

test('an unknown local code says so, in words, without leaving the page', async ({ ext }) => {
  const visitor = await ext.context.newPage();
  await visitor.goto(`${ext.origin}/open.html#/nosuch1/`);
  await expect(visitor.locator('#title')).toHaveText('No such short link');
  await expect(visitor.locator('#detail')).toHaveText(/Local links open only in the browser that made them\./);
  expect(visitor.url()).toBe(`${ext.origin}/open.html#/nosuch1/`);
  await visitor.close();
});
