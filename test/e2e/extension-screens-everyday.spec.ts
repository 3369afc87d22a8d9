import { popupLayoutProblems } from './cross-browser/popup-layout.js';
import {
  API_WORDS,
  expectFits,
  expectNoSeriousViolations,
  popupTab,
  putHistory,
  record,
  shortenIn,
  words,
} from './extension-screens-fixtures.js';
import { expect, test } from './fixtures.js';
import { launchExtension } from './launch-extension.js';

// The popup's everyday states in English and Korean, light and dark: a pending link (the server
// not answering) offers nothing that does not work yet; a local link is shown, not copied; the
// password badge's padlock is an image.

/** A server address where nothing listens: every request fails at once, as an unreachable server. */
const DEAD_SERVER = 'http://127.0.0.1:9';

for (const lang of ['en', 'ko'] as const) {
  test(`${lang}: a pending link has no Copy, Open, QR code or downloads until it exists; the password badge is an image`, async ({
    site,
  }) => {
    const ext = await launchExtension({ lang });
    try {
      const w = (key: string, ...values: string[]) => words(lang, key, ...values);
      for (const theme of ['light', 'dark'] as const) {
        const screen = `popup, ${lang}, ${theme}`;
        // Local first: shown, not copied unasked, and the popup says how to get a real one.
        const local = await popupTab(ext, theme);
        await shortenIn(local, site.url(`/everyday/local-${theme}`));
        await expect(local.locator('#result-state')).toHaveText(w('statusLocal'));
        await expect(local.locator('#status')).toHaveText(w('localNotCopied'));
        await expect(local.locator('#copy')).toBeVisible();
        await expectFits(local, `${screen}, a local link`);
        await expectNoSeriousViolations(local, `${screen}, a local link`);
        await local.close();

        const setup = await popupTab(ext, theme);
        // The settings as the options page saves them (WXT's `local:settings`).
        await setup.evaluate(`chrome.storage.local.set({
          settings: { serverUrl: '${DEAD_SERVER}', apiKey: 'lk_everyday', defaultExpire: '1week', autoCopy: true },
        })`);
        await putHistory(setup, [
          record({
            id: `locked-${theme}`,
            code: `locked-${theme}`,
            originalUrl: site.url('/everyday/locked'),
            shortUrl: `${DEAD_SERVER}/locked-${theme}/`,
            server: DEAD_SERVER,
            status: 'synced',
            passwordProtected: true,
          }),
        ]);
        await setup.close();

        const popup = await popupTab(ext, theme);
        await shortenIn(popup, site.url(`/everyday/pending-${theme}`));
        await expect(popup.locator('#result-state')).toHaveText(w('statusPending'));
        await expect(popup.locator('#copy')).toBeHidden();
        await expect(popup.locator('#qr')).toBeHidden();
        await expect(popup.locator('#qr svg')).toHaveCount(0);
        await expect(popup.locator('#qr-download button')).toHaveCount(0);
        await expect(popup.locator('#result-message')).toHaveText(w('pendingExplained'));
        await expect(popup.locator('#status')).toHaveText(w('pendingNotCopied'));
        const pending = popup.locator('#history .history-item[data-status="pending"]').first();
        await expect(pending.locator('button.retry')).toBeVisible();
        await expect(pending.locator('button.copy')).toHaveCount(0);
        await expect(pending.locator('button.open')).toHaveCount(0);

        // The padlock is an SVG image in the text's colour, hidden from screen readers; no emoji.
        const badge = popup.locator(`#history [data-id="locked-${theme}"] .badge.protected`);
        await expect(badge).toHaveText(w('historyProtected'));
        await expect(badge.locator('svg.lock-icon')).toBeVisible();
        await expect(badge.locator('svg.lock-icon')).toHaveAttribute('aria-hidden', 'true');
        expect(await badge.textContent()).not.toMatch(/\p{Extended_Pictographic}/u);

        // A link the key's owner manages offers everything, on one line: Delete is never alone on a second.
        await expect(popup.locator(`#history [data-id="locked-${theme}"] button.disable`)).toBeVisible();
        expect(await popupLayoutProblems({ evaluate: (expression) => popup.evaluate(expression) })).toEqual([]);
        expect(await popup.locator('main').innerText()).not.toMatch(API_WORDS);
        await expectFits(popup, `${screen}, a pending link`);
        await expectNoSeriousViolations(popup, `${screen}, a pending link`);
        await popup.evaluate(`chrome.storage.local.remove('settings')`);
        await popup.close();
      }
    } finally {
      await ext.close();
    }
  });
}
