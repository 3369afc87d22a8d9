import type { Page } from '@playwright/test';
import {
  expectFits,
  expectNoSeriousViolations,
  labelledLinks,
  popupTab,
  putHistory,
  shortenIn,
  words,
} from './extension-screens-fixtures.js';
import { expect, test } from './fixtures.js';
import { launchExtension } from './launch-extension.js';

// The popup's history and the link options: a synced link's title and tags are searched, a tag
// narrows the list (its chip or the Tag select), and every link the popup can act on offers
// Renew, a live one too.

const DAY = 24 * 3600_000;

const listedIds = (popup: Page) =>
  popup.locator('#history .history-item').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.id));

for (const lang of ['en', 'ko'] as const) {
  test(`${lang}: the history searches titles and tags, and a tag chip or the Tag select narrows it`, async ({
    site,
  }) => {
    const ext = await launchExtension({ lang });
    try {
      const w = (key: string, ...values: string[]) => words(lang, key, ...values);
      const first = await popupTab(ext);
      // No tagged link yet: the Tag select would offer nothing, so it is not shown.
      await expect(first.locator('#tag-filter')).toBeHidden();
      await putHistory(
        first,
        labelledLinks((path) => site.url(path)),
      );
      await first.close();

      const popup = await popupTab(ext);
      await expect(popup.locator('#search')).toHaveAttribute('placeholder', w('historySearchPlaceholder'));
      const select = popup.locator('#tag-filter');
      await expect(select).toBeVisible();
      // Sorted as the page's language sorts: Korean puts Hangul first, English Latin letters.
      const sorted = lang === 'ko' ? ['소풍', 'family', 'work'] : ['family', 'work', '소풍'];
      await expect(select.locator('option')).toHaveText([w('tagFilterAll'), ...sorted]);
      await expect(popup.locator('html')).toHaveAttribute('lang', lang);
      await expect(select).toHaveAccessibleName(w('tagFilterLabel'));

      // The search finds words of a title and a tag, whatever their case.
      await popup.locator('#search').fill('QUARTERLY');
      await expect.poll(() => listedIds(popup)).toEqual(['budget']);
      await popup.locator('#search').fill('소풍');
      await expect.poll(() => listedIds(popup)).toEqual(['picnic']);
      await popup.locator('#search').fill('nowhere');
      await expect(popup.locator('#history-empty')).toHaveText(w('webNoLinks'));
      await popup.locator('#search').fill('');
      await expect.poll(() => listedIds(popup)).toHaveLength(3);
      await expect(popup.locator('#history-empty')).toBeHidden();

      // A chip is a button named for what it does; pressing it lists that tag's links only.
      const chip = popup.locator('.history-item[data-id="budget"] .tag-chip', { hasText: 'work' });
      await expect(chip).toHaveAttribute('title', w('tagChipTitle', 'work'));
      await chip.click();
      await expect(select).toHaveValue('work');
      await expect.poll(() => listedIds(popup)).toEqual(expect.arrayContaining(['budget', 'notes']));
      expect(await listedIds(popup)).toHaveLength(2);
      // The filter and the search narrow together.
      await popup.locator('#search').fill('team');
      await expect.poll(() => listedIds(popup)).toEqual(['notes']);
      await popup.locator('#search').fill('');
      await select.selectOption('소풍');
      await expect.poll(() => listedIds(popup)).toEqual(['picnic']);
      await expectNoSeriousViolations(popup, `popup filtered by a tag, ${lang}`);
      await expectFits(popup, `popup filtered by a tag, ${lang}`);
      await select.selectOption('');
      await expect.poll(() => listedIds(popup)).toHaveLength(3);
      await popup.close();
    } finally {
      await ext.close();
    }
  });

  test(`${lang}: a live link offers Renew too; renewing it shows its new expiry`, async ({ site }) => {
    const ext = await launchExtension({ lang });
    try {
      const w = (key: string, ...values: string[]) => words(lang, key, ...values);
      const made = await popupTab(ext);
      await shortenIn(made, site.url('/still-live'), 'still-live');
      await expect(made.locator('#error')).toBeHidden();
      await made.close();

      const popup = await popupTab(ext);
      const item = popup.locator('#history .history-item').filter({ hasText: 'still-live' });
      await expect(item.locator('.badge.expired')).toHaveCount(0);
      const expiry = item.locator('.muted').first();
      const before = await expiry.textContent();
      const renew = item.locator('button.renew');
      await expect(renew).toHaveAccessibleName(new RegExp(`^${w('renewButton')}: `));
      await item.locator('select.renew-duration').selectOption('1month');
      await renew.click();
      const [prefix, suffix] = w('renewedNote', '\u0000').split('\u0000') as [string, string];
      await expect(popup.locator('#status')).toContainText(prefix);
      // The note names the new end, and the entry shows that date where it showed the old one.
      const status = (await popup.locator('#status').textContent()) ?? '';
      const newEnd = status.slice(prefix.length, status.length - suffix.length);
      expect(newEnd).not.toBe('');
      await expect(expiry).toContainText(newEnd);
      await expect(expiry).not.toHaveText(before ?? '');
      const stored = await popup.evaluate(
        (code) =>
          new Promise<number>((done, reject) => {
            const open = indexedDB.open('linklet');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const request = open.result.transaction('links').objectStore('links').getAll();
              request.onsuccess = () => {
                open.result.close();
                done(
                  (request.result as Array<{ code: string; expiresAt: number }>).find((l) => l.code === code)
                    ?.expiresAt ?? 0,
                );
              };
            };
          }),
        'still-live',
      );
      expect(stored).toBeGreaterThan(Date.now() + 27 * DAY);
      await expect(item.locator('button.renew')).toHaveCount(1);
      await popup.close();
    } finally {
      await ext.close();
    }
  });
}
