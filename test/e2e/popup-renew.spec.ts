import type { Page } from '@playwright/test';
import {
  expectNoSeriousViolations,
  popupTab,
  putHistory,
  record,
  shortenIn,
  words,
} from './extension-screens-fixtures.js';
import { expect, test } from './fixtures.js';
import { launchExtension } from './launch-extension.js';

// Issue 24 in the popup: an expired link in the history says Expired and offers Renew (with how
// long) where Disable would be; renewing brings it back. A local link made in the popup, expired
// in the extension's database (both its link and its history entry), not waited for.

const DAY = 24 * 3600_000;

/** Sets `code`'s link and history entry as expired a day ago, in the extension's IndexedDB. */
function expireLocally(page: Page, code: string): Promise<void> {
  return page.evaluate(
    ({ code, at }) =>
      new Promise<void>((done, reject) => {
        const open = indexedDB.open('linklet');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(['history', 'links'], 'readwrite');
          for (const name of ['history', 'links']) {
            const cursor = tx.objectStore(name).openCursor();
            cursor.onsuccess = () => {
              const row = cursor.result;
              if (!row) return;
              if (row.value.code === code) row.update({ ...row.value, expiresAt: at });
              row.continue();
            };
          }
          tx.oncomplete = () => {
            db.close();
            done();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { code, at: Date.now() - DAY },
  );
}

/** The expiry of `code`'s link in the bundled backend's store. */
function storedExpiry(page: Page, code: string): Promise<number> {
  return page.evaluate(
    (code) =>
      new Promise<number>((done, reject) => {
        const open = indexedDB.open('linklet');
        open.onsuccess = () => {
          const request = open.result.transaction('links').objectStore('links').getAll();
          request.onsuccess = () => {
            open.result.close();
            done(
              (request.result as Array<{ code: string; expiresAt: number }>).find((l) => l.code === code)?.expiresAt ??
                0,
            );
          };
          request.onerror = () => reject(request.error);
        };
        open.onerror = () => reject(open.error);
      }),
    code,
  );
}

for (const lang of ['en', 'ko'] as const) {
  test(`${lang}: a synced entry shows its title and tags; an expired one says Expired and offers Renew, not Disable; renewing makes it active`, async ({
    site,
  }) => {
    const ext = await launchExtension({ lang });
    try {
      const w = (key: string, ...values: string[]) => words(lang, key, ...values);
      const made = await popupTab(ext);
      await shortenIn(made, site.url('/renew-me'), 'renew-me');
      await expect(made.locator('#error')).toBeHidden();
      await expireLocally(made, 'renew-me');
      // A synced link with the title and tags the server gave it.
      await putHistory(made, [
        record({
          id: 'labelled',
          code: 'picnic',
          originalUrl: site.url('/picnic'),
          shortUrl: 'https://sho.example/picnic',
          server: 'https://sho.example',
          status: 'synced',
          title: '봄 소풍 안내 — spring picnic',
          tags: ['work', '소풍'],
        }),
      ]);
      await made.close();

      const popup = await popupTab(ext);
      const labelled = popup.locator('#history .history-item[data-id="labelled"]');
      await expect(labelled.locator('.link-title')).toHaveText('봄 소풍 안내 — spring picnic');
      await expect(labelled.locator('.tag-chip')).toHaveText(['work', '소풍']);
      const item = popup.locator('#history .history-item').filter({ hasText: 'renew-me' });
      await expect(item.locator('.badge.expired')).toHaveText(w('statusExpired'));
      await expect(item.locator('button.disable')).toHaveCount(0);
      const duration = item.locator('select.renew-duration');
      await expect(duration.locator('option')).toHaveText(
        ['expire24h', 'expire48h', 'expire1week', 'expire1month'].map((key) => w(key)),
      );
      await expectNoSeriousViolations(popup, `popup with an expired link, ${lang}`);
      await duration.selectOption('1month');
      await item.locator('button.renew').click();
      await expect(popup.locator('#status')).toContainText(w('renewedNote', '\u0000').split('\u0000')[0] as string);
      await expect(item.locator('.badge.expired')).toHaveCount(0);
      // Renew stays on the live link: it can be renewed again, from now.
      await expect(item.locator('button.renew')).toHaveCount(1);
      const expiresAt = await storedExpiry(popup, 'renew-me');
      expect(expiresAt).toBeGreaterThan(Date.now() + 27 * DAY);
      await popup.close();
    } finally {
      await ext.close();
    }
  });
}
