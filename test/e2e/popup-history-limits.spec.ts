import {
  expectFits,
  expectNoSeriousViolations,
  POPUP_SIZE,
  popupTab,
  putHistory,
  record,
  words,
} from './extension-screens-fixtures.js';
import { expect, test } from './fixtures.js';
import { launchExtension } from './launch-extension.js';

// A synced link's rules and limits are set on the server (the web app, the API); the popup's
// history shows that it has them, in short labels, and offers nothing to edit them (SPEC "Link
// rules and limits": the extension's history shows them, not edits them). Light and dark, en/ko.

const DAY = 24 * 3600_000;

for (const lang of ['en', 'ko'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`${lang}, ${theme}: a synced link's rules, visit limit and later start show as labels`, async ({ site }) => {
      const ext = await launchExtension({ lang });
      try {
        const w = (key: string, ...values: string[]) => words(lang, key, ...values);
        const first = await popupTab(ext, theme);
        const synced = { server: 'https://sho.example', status: 'synced', fromServer: true } as const;
        const since = Date.now() + 3 * DAY;
        await putHistory(first, [
          record({
            ...synced,
            id: 'ruled',
            code: 'ruled',
            originalUrl: site.url('/ruled'),
            shortUrl: 'https://sho.example/ruled',
            clicks: 12,
            hasRules: true,
            maxVisits: 100,
            validSince: since,
          }),
          record({
            ...synced,
            id: 'plain',
            code: 'plain',
            originalUrl: site.url('/plain'),
            shortUrl: 'https://sho.example/plain',
            clicks: 3,
          }),
          // A damaged record (written by hand, or an old bug) shows the link without those labels.
          record({
            ...synced,
            id: 'damaged',
            code: 'damaged',
            originalUrl: site.url('/damaged'),
            shortUrl: 'https://sho.example/damaged',
            maxVisits: 'many',
            validSince: 'soon',
          }),
        ]);
        await first.close();

        const popup = await popupTab(ext, theme, POPUP_SIZE);
        const ruled = popup.locator('.history-item[data-id="ruled"]');
        await expect(ruled.locator('.badge.rules')).toHaveText(w('historyRules'));
        await expect(ruled.locator('.badge.rules')).toHaveAttribute('title', w('historyRulesTitle'));
        await expect(ruled.locator('.badge.visit-limit')).toHaveText(w('badgeVisits', '12', '100'));
        const when = await popup.evaluate(
          ([at, language]) =>
            new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(at as number),
          [since, lang] as const,
        );
        await expect(ruled.locator('.badge.starts')).toHaveText(w('badgeStarts', when));
        for (const id of ['plain', 'damaged']) {
          const item = popup.locator(`.history-item[data-id="${id}"]`);
          await expect(item).toBeVisible();
          await expect(item.locator('.badge.rules, .badge.visit-limit, .badge.starts')).toHaveCount(0);
        }
        // Shown, not edited: the popup has no control for them.
        await expect(popup.locator('input[type="datetime-local"], .edit-rules')).toHaveCount(0);
        await expectNoSeriousViolations(popup, `history with rules and limits, ${lang} ${theme}`);
        await expectFits(popup, `history with rules and limits, ${lang} ${theme}`);
        await popup.close();
      } finally {
        await ext.close();
      }
    });
  }
}
