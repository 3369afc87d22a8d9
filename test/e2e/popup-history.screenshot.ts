import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { labelledLinks, popupTab, putHistory } from './extension-screens-fixtures.js';
import { launchExtension } from './launch-extension.js';

// `npm run screenshots`, not `npm test`: the popup's history in Korean and the dark theme, with
// links synced from a server (their titles and tags as chips), narrowed by the Tag select.

test('docs/popup-history-ko.png: the history with titles, tags and the Tag select', async () => {
  const ext = await launchExtension({ lang: 'ko' });
  try {
    const first = await popupTab(ext, 'dark');
    await putHistory(
      first,
      labelledLinks((path) => `https://example.com${path}`),
    );
    await first.close();
    const popup = await popupTab(ext, 'dark');
    await expect(popup.locator('#tag-filter')).toBeVisible();
    await expect(popup.locator('#history .history-item')).toHaveCount(3);
    // Narrowed to one tag: the link whose title and tags the server set, whole.
    await popup.locator('#tag-filter').selectOption('소풍');
    await expect(popup.locator('#history .history-item')).toHaveCount(1);
    await popup
      .locator('section[aria-labelledby="history-heading"]')
      .screenshot({ path: resolve('docs/popup-history-ko.png') });
  } finally {
    await ext.close();
  }
});
