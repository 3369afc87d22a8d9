import {
  API_WORDS,
  expectFits,
  expectNoSeriousViolations,
  LONG_HANGUL_CODE,
  linesOf,
  longUrl,
  popupTab,
  putHistory,
  record,
  shortenIn,
  words,
} from './extension-screens-fixtures.js';
import { expect, test } from './fixtures.js';
import { launchExtension } from './launch-extension.js';

// The extension's screens as people meet them: the popup at its size,
// in English and Korean, light and dark, with a 300-character URL and a 40-syllable Hangul code.

const DAY = 24 * 3600_000;

for (const lang of ['en', 'ko'] as const) {
  test(`${lang}: local links say "only in this browser", with no QR code; the first popup explains local mode once; the history fits`, async ({
    site,
  }) => {
    const ext = await launchExtension({ lang });
    try {
      const w = (key: string, ...values: string[]) => words(lang, key, ...values);
      const target = longUrl(site.url(''));
      // An expired link and a server link clicked once, as an earlier sync left them.
      const setup = await popupTab(ext);
      await putHistory(setup, [
        record({
          id: 'expired',
          code: 'old-link',
          originalUrl: site.url('/expired'),
          shortUrl: 'https://sho.example/old-link',
          server: 'https://sho.example',
          status: 'synced',
          expiresAt: Date.now() - DAY,
          createdAt: Date.now() - 8 * DAY,
        }),
        record({
          id: 'clicked-once',
          code: 'once',
          originalUrl: site.url('/once'),
          shortUrl: 'https://sho.example/once',
          server: 'https://sho.example',
          status: 'synced',
          clicks: 1,
          createdAt: Date.now() - DAY,
        }),
      ]);
      await setup.close();

      for (const theme of ['light', 'dark'] as const) {
        const popup = await popupTab(ext, theme);
        const screen = `popup, ${lang}, ${theme}`;
        if (theme === 'light') {
          // The first popup says what local mode is, until dismissed.
          await expect(popup.locator('#local-intro')).toBeVisible();
          await expect(popup.locator('#local-intro h2')).toHaveText(w('localIntroTitle'));
          await expect(popup.locator('#local-intro a')).toHaveText(w('localSetServer'));
          await expectNoSeriousViolations(popup, `${screen}, local mode explained`);
          await popup.locator('#local-intro-dismiss').click();
          await expect(popup.locator('#local-intro')).toBeHidden();
        } else {
          // Dismissed once, it is not said again.
          await expect(popup.locator('#status')).not.toBeEmpty();
          await expect(popup.locator('#local-intro')).toBeHidden();
        }

        await shortenIn(popup, target, theme === 'light' ? LONG_HANGUL_CODE : `${LONG_HANGUL_CODE.slice(0, 39)}끝`);
        await expect(popup.locator('#error')).toBeHidden();
        await expect(popup.locator('#result-state')).toHaveText(w('statusLocal'));
        await expect(popup.locator('#result-local a')).toHaveText(w('localSetServer'));
        await expect(popup.locator('#qr')).toBeHidden();
        await expect(popup.locator('#qr svg')).toHaveCount(0);
        await expect(popup.locator('#qr-download button')).toHaveCount(0);

        const item = popup.locator('#history .history-item[data-status="local"]').first();
        await expect(item.locator('.badge.state')).toHaveText(w('statusLocal'));
        // The way to a server is said once, on the result: not under each link, not in the status.
        await expect(item.locator('a')).toHaveCount(0);
        await expect(item.locator('.badge.state')).toHaveAttribute('title', w('localOnlyTitle'));
        await expect(popup.locator('main a.set-server:visible')).toHaveCount(1);
        // The long short URL and the 300-character target: one line each, the whole text on hover.
        const shortUrl = await item.locator('.short-url').textContent();
        expect(await item.locator('.short-url').getAttribute('title')).toBe(shortUrl);
        expect(await item.locator('.original-url').getAttribute('title')).toBe(target);
        expect(await linesOf(popup, '#history .history-item[data-status="local"] .short-url')).toBe(1);
        expect(await linesOf(popup, '#history .history-item[data-status="local"] .original-url')).toBe(1);
        const tallest = await popup
          .locator('#history .history-item')
          .evaluateAll((items) => Math.max(...items.map((li) => li.getBoundingClientRect().height)));
        expect(tallest, 'a history item stays a few lines tall').toBeLessThan(170);

        // Expired: marked so, and no Disable (Renew takes that place).
        const expired = popup.locator('#history .history-item[data-id="expired"]');
        await expect(expired.locator('.badge.expired')).toHaveText(w('statusExpired'));
        await expect(expired.locator('button.disable')).toHaveCount(0);
        // Counts agree with their number.
        await expect(popup.locator('#history [data-id="clicked-once"] .clicks')).toHaveText(w('clicksCountOne', '1'));
        if (lang === 'ko') {
          expect(await popup.evaluate(() => getComputedStyle(document.body).wordBreak)).toBe('keep-all');
        }
        expect(await popup.locator('main').innerText()).not.toMatch(API_WORDS);
        await expectFits(popup, screen);
        await expectNoSeriousViolations(popup, screen);
        await popup.close();
      }
    } finally {
      await ext.close();
    }
  });
}

test('Delete asks first and says where it acts: removed from this browser, or deleted on the server for everyone', async ({
  ext,
  site,
}) => {
  const popup = await popupTab(ext);
  await shortenIn(popup, site.url('/to-delete'), 'delete-me');
  const local = popup.locator('#history .history-item[data-status="local"]');
  await local.locator('button.delete').click();
  await expect(local.locator('.confirm-delete p')).toHaveText(
    `Remove ${await popup.locator('#short-url').inputValue()} from this browser? It will no longer open here.`,
  );
  await local.locator('.confirm-no').click();
  await expect(local).toHaveCount(1);
  await expect(local.locator('.confirm-delete')).toHaveCount(0);

  await local.locator('button.delete').click();
  await local.locator('.confirm-yes').click();
  await expect(local).toHaveCount(0);
  await expect(popup.locator('#status')).toHaveText('Removed from this browser.');
  await popup.close();

  // A link synced to the server set with a key: deleting it frees its code for anyone.
  const settingsPage = await popupTab(ext);
  // The settings as the options page saves them (WXT's `local:settings`).
  await settingsPage.evaluate(`chrome.storage.local.set({
    settings: { serverUrl: 'http://127.0.0.1:9', apiKey: 'lk_e2e', defaultExpire: '1week', autoCopy: false },
  })`);
  await putHistory(settingsPage, [
    record({
      id: 'synced',
      code: 'shared',
      originalUrl: site.url('/shared'),
      shortUrl: 'http://127.0.0.1:9/shared',
      server: 'http://127.0.0.1:9',
      status: 'synced',
    }),
  ]);
  await settingsPage.close();
  const synced = await popupTab(ext);
  const item = synced.locator('#history .history-item[data-id="synced"]');
  await item.locator('button.delete').click();
  await expect(item.locator('.confirm-delete p')).toHaveText(
    'Delete http://127.0.0.1:9/shared on the server? It stops working for everyone, and its code becomes free for anyone to take.',
  );
  await expectNoSeriousViolations(synced, 'the Delete question');
  await item.locator('.confirm-no').click();
  await expect(item).toHaveCount(1);
});

for (const lang of ['en', 'ko'] as const) {
  test(`${lang}: Copy says "Copied" where it was clicked; a failed shorten clears the last result; errors in people's words; the scheme is added`, async ({
    site,
  }) => {
    const ext = await launchExtension({ lang });
    try {
      const w = (key: string, ...values: string[]) => words(lang, key, ...values);
      const popup = await popupTab(ext);

      // example.com/page is taken as https://example.com/page.
      await shortenIn(popup, 'example.com/page');
      await expect(popup.locator('#url')).toHaveValue('https://example.com/page');
      await expect(popup.locator('#history .original-url').first()).toHaveText('https://example.com/page');

      await popup.locator('#copy').click();
      await expect(popup.locator('#copy')).toHaveText(w('copiedShort'));
      await expect(popup.locator('#copy')).toHaveText(w('copy'));
      const historyCopy = popup.locator('#history .history-item button.copy').first();
      await historyCopy.click();
      await expect(historyCopy).toHaveText(w('copiedShort'));
      await expect(historyCopy).toHaveText(w('copy'));

      // A refused shorten: the previous link and anything of it go; the error says what to do.
      // The field it is about is marked invalid, described by the error and focused, so a screen
      // reader says which field to fix; an error about the other field moves the mark.
      const marked = async (field: '#url' | '#code') => {
        await expect(popup.locator(field)).toHaveAttribute('aria-invalid', 'true');
        await expect(popup.locator(field)).toHaveAttribute('aria-describedby', 'error');
        await expect(popup.locator(field)).toBeFocused();
        const other = field === '#url' ? '#code' : '#url';
        await expect(popup.locator(other)).not.toHaveAttribute('aria-invalid', 'true');
      };
      await shortenIn(popup, site.url('/bad-code'), 'no spaces');
      await expect(popup.locator('#error')).toHaveText(w('errorCodeCharacters'));
      await marked('#code');
      await expect(popup.locator('#result')).toBeHidden();
      await expect(popup.locator('#short-url')).toHaveValue('');
      await expect(popup.locator('#qr svg')).toHaveCount(0);

      await shortenIn(popup, 'https://exa mple.com/');
      await expect(popup.locator('#error')).toHaveText(w('errorUrlSpaces'));
      await marked('#url');
      await shortenIn(popup, 'ftp://example.com/file');
      await expect(popup.locator('#error')).toHaveText(w('errorUrlInvalid'));
      await marked('#url');
      await shortenIn(popup, site.url('/taken'), 'taken-code');
      await expect(popup.locator('#url')).not.toHaveAttribute('aria-invalid', 'true');
      await shortenIn(popup, site.url('/taken-again'), 'taken-code');
      await expect(popup.locator('#error')).not.toBeEmpty();
      const taken = await popup.locator('#error').textContent();
      expect(taken?.startsWith(w('errorCodeTaken'))).toBe(true);
      await marked('#code');
      for (const error of [taken ?? '']) {
        expect(error).not.toMatch(API_WORDS);
        // Never the API's English glued into a Korean sentence.
        if (lang === 'ko') expect(error).not.toMatch(/[A-Za-z]{4,}/);
      }
      await expectNoSeriousViolations(popup, `popup with an error, ${lang}`);

      // A new action clears the last error.
      await popup.locator('#history .history-item button.copy').first().click();
      await expect(popup.locator('#error')).toBeHidden();
      await expectFits(popup, `popup after errors, ${lang}`);
    } finally {
      await ext.close();
    }
  });
}
