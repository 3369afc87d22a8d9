import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  API_WORDS,
  DESKTOP,
  expectFits,
  expectNoSeriousViolations,
  linesOf,
  PHONE,
  popupTab,
  shortenIn,
  words,
} from './extension-screens-fixtures.js';
import { expect, setServer, test } from './fixtures.js';
import { launchExtension } from './launch-extension.js';
import { expectQrDownloads } from './qr-downloads.js';

// The options page on a phone and on a desktop, light and dark, English and Korean; its import
// error; and the popup's QR code download for a server link.

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function optionsTab(origin: string, page: Page, theme: 'light' | 'dark', size: typeof PHONE): Promise<Page> {
  await page.setViewportSize(size);
  await page.emulateMedia({ colorScheme: theme });
  await page.goto(`${origin}/options.html`);
  await expect(page.locator('h1')).not.toBeEmpty();
  return page;
}

for (const lang of ['en', 'ko'] as const) {
  test(`${lang}: options fit a phone and a desktop in both themes; an import error is a short summary and one problem per line`, async () => {
    const ext = await launchExtension({ lang });
    try {
      const w = (key: string, ...values: string[]) => words(lang, key, ...values);
      const page = await ext.context.newPage();
      for (const size of [PHONE, DESKTOP]) {
        for (const theme of ['light', 'dark'] as const) {
          const screen = `options, ${lang}, ${theme}, ${size.width}×${size.height}`;
          await optionsTab(ext.origin, page, theme, size);
          if (lang === 'ko') {
            expect(await page.evaluate(() => getComputedStyle(document.body).wordBreak)).toBe('keep-all');
          }
          await expectFits(page, screen);
          await expectNoSeriousViolations(page, screen);
        }
      }

      // A file of no known format: one sentence, then the formats one per line, none cut.
      await optionsTab(ext.origin, page, 'light', PHONE);
      const problems = page.locator('#import-problems li');
      const file = join(tmpdir(), `not-an-export-${lang}.csv`);
      await writeFile(file, 'name,address\nhome,https://example.com\n');
      await page.locator('#import').setInputFiles(file);
      await expect(page.locator('#data-status')).toHaveText(w('importUnknownFormat'));
      await expect(page.locator('#data-status')).toHaveAttribute('data-ok', 'false');
      await expect(problems).toHaveCount(7);
      await expect(problems.first()).toHaveText('Linklet CSV');
      for (let i = 0; i < 7; i++) expect(await linesOf(page, `#import-problems li >> nth=${i}`)).toBe(1);
      expect(await page.locator('main').innerText()).not.toMatch(API_WORDS);
      await expectFits(page, `options with an import error, ${lang}`);
      await expectNoSeriousViolations(page, `options with an import error, ${lang}`);
      await expect(page.locator('#import')).toBeEnabled();

      // A links file: named in words, coloured by what happened, each row not imported with why.
      const links = async (name: string, rows: Array<Record<string, unknown>>) => {
        const path = join(tmpdir(), `${name}-${lang}.json`);
        await writeFile(path, JSON.stringify({ version: 1, exported_at: new Date().toISOString(), links: rows }));
        await page.locator('#import').setInputFiles(path);
        await expect(page.locator('#import')).toBeEnabled();
      };
      const later = new Date(Date.now() + 3 * 86_400_000).toISOString();
      const refused = [
        { code: 'no spaces', original_url: 'https://example.com/a', expiration_date: later },
        { code: 'gone', original_url: 'https://example.com/b', expiration_date: '2020-01-01T00:00:00.000Z' },
      ];
      const good = { code: 'fresh', original_url: 'https://example.com/fresh', expiration_date: later };
      const status = page.locator('#data-status');
      // Nothing imported: an error's colour, never the format's id, and a reason per row.
      await links('nothing', refused);
      await expect(status).toHaveText(
        new RegExp(`^${escapeRegExp(w('importLinksLocalOther', 'Linklet JSON', '0', '2'))}`),
      );
      await expect(status).toHaveAttribute('data-ok', 'false');
      await expect(status).not.toContainText('linklet-json');
      await expect(problems).toHaveText([`no spaces: ${w('errorCodeCharacters')}`, `gone: ${w('importRowExpired')}`]);
      await expectNoSeriousViolations(page, `options after an import that imported nothing, ${lang}`);
      // Some imported: a warning's colour, in both themes.
      await optionsTab(ext.origin, page, 'dark', PHONE);
      await links('some', [...refused, good]);
      await expect(status).toContainText(w('importLinksLocalOther', 'Linklet JSON', '1', '3'));
      await expect(status).toHaveAttribute('data-ok', 'warn');
      await expect(problems).toHaveCount(2);
      expect(await page.locator('main').innerText()).not.toMatch(API_WORDS);
      await expectFits(page, `options after an import that imported some, ${lang}`);
      await expectNoSeriousViolations(page, `options after an import that imported some, ${lang}`);
      // The same link again is already here, not refused: everything is where it should be.
      await links('again', [good]);
      await expect(status).toHaveText(
        `${w('importLinksLocalOne', 'Linklet JSON', '0', '1')} ${w('importLinksCounts', '1', '0', '0', '0')}`,
      );
      await expect(status).toHaveAttribute('data-ok', 'true');
      await expect(page.locator('#import-problems')).toBeHidden();

      // A new action replaces the last one's result: Export leaves no import problem behind.
      const download = page.waitForEvent('download');
      await page.locator('#export').click();
      await download;
      await expect(page.locator('#import-problems')).toBeHidden();
      await expect(page.locator('#data-status')).toHaveText('');

      // The server typed without a scheme is taken as https://; a dead address in words.
      await page.locator('#server-url').fill('nothing-here.invalid');
      await page.locator('#test-connection').click();
      await expect(page.locator('#server-url')).toHaveValue('https://nothing-here.invalid');
      await expect(page.locator('#connection-result')).toHaveText(w('connectionUnreachable'));
    } finally {
      await ext.close();
    }
  });
}

test('a server link in the popup has its QR code, saved as <code>.svg and <code>.png; a Hangul code stays readable', async ({
  ext,
  site,
  companion,
}) => {
  await setServer(ext, companion.url);
  const popup = await popupTab(ext);
  const code = 'qr-한글코드';
  await shortenIn(popup, site.url('/qr-download'), code);
  await expect(popup.locator('#error')).toBeHidden();
  await expect(popup.locator('#result-state')).toHaveText('on server');
  await expect(popup.locator('#qr svg')).toBeVisible();
  await expect(popup.locator('#result-local')).toBeHidden();

  await expectQrDownloads(popup, code);

  await expectFits(popup, 'popup with a server link');
  await expectNoSeriousViolations(popup, 'popup with a server link');
});

test('a server typed without a scheme is completed: http:// for localhost and IP addresses, and the hint says so', async ({
  ext,
  companion,
}) => {
  const port = new URL(companion.url).port;
  const options = await ext.context.newPage();
  await options.goto(`${ext.origin}/options.html`);
  await expect(options.locator('#server-help')).toContainText('http:// for localhost, an IP address or a .local name');
  for (const [typed, completed] of [
    [`localhost:${port}`, `http://localhost:${port}`],
    [`127.0.0.1:${port}/`, `http://127.0.0.1:${port}/`],
  ] as const) {
    // A fresh page each time, so the result read is this address's.
    await options.goto(`${ext.origin}/options.html`);
    await options.locator('#server-url').fill(typed);
    await options.locator('#test-connection').click();
    // The server was reached at the completed address (it names its own BASE_URL's endpoint).
    await expect(options.locator('#server-url')).toHaveValue(completed);
    await expect(options.locator('#connection-result')).toContainText(`Connected: Linklet answers at ${companion.url}`);
    await expect(options.locator('#connection-result')).toHaveAttribute('data-ok', 'true');
  }
  await options.locator('#save').click();
  await expect(options.locator('#options-status')).toHaveText('Saved.');
  // Saved as a base URL, without the trailing slash.
  await expect(options.locator('#server-url')).toHaveValue(`http://127.0.0.1:${port}`);
  await options.close();
});
