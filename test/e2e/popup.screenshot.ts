import { resolve } from 'node:path';
import { expect, historyItemFor, openTab, popupWithResult, test } from './fixtures.js';

// `npm run screenshots`, not `npm test`: retakes the README's picture of the real popup, right
// after one click in a fresh profile. The test run must leave the tracked file alone.

test('docs/popup.png: the popup after one toolbar click', async ({ ext, site }) => {
  const pageUrl = site.url('/articles/hello-linklet');
  const page = await openTab(ext, pageUrl);
  const { popup, shortUrl } = await popupWithResult(ext, page);
  // Wait for everything the picture shows: the status (a local link is not copied) and the history.
  await popup.waitFor(`document.querySelector('#status').textContent.startsWith('Not copied')`, 'the status');
  expect((await historyItemFor(popup, pageUrl, 'local')).shortUrl).toBe(shortUrl);
  await popup.screenshot(resolve('docs/popup.png'));
  expect(popup.errors).toEqual([]);
  await popup.close();
});
