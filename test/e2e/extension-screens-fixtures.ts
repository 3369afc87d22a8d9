import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { ExtensionBrowser } from './launch-extension.js';
import { expectNoSeriousViolations } from './web-app/fixtures.js';

export { expectNoSeriousViolations };

/** The popup's own size: its body is 380 px wide; Chromium shows a popup at most 800 × 600. */
export const POPUP_SIZE = { width: 380, height: 600 };
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

type Catalog = Record<string, { message: string }>;
const catalog = (lang: string) =>
  JSON.parse(readFileSync(resolve(`public/_locales/${lang}/messages.json`), 'utf8')) as Catalog;
const CATALOGS: Record<string, Catalog> = { en: catalog('en'), ko: catalog('ko') };

/** A message of the extension's catalog in `lang` ('en' or 'ko'), `$1`… filled in. */
export function words(lang: string, key: string, ...substitutions: string[]): string {
  const message = CATALOGS[lang]?.[key]?.message;
  if (message === undefined) throw new Error(`no message ${key} in ${lang}`);
  return message.replace(/\$([1-9])/g, (_, n: string) => substitutions[Number(n) - 1] ?? '');
}

/** A URL of 300 characters on `base`: the layout must cut it, never wrap it over lines. */
export function longUrl(base: string): string {
  const start = `${base}/a-very-long-path/`;
  return `${start}${'segment-'.repeat(40)}`.slice(0, 300);
}

/** A 40-syllable Hangul code: the longest words a Korean user may choose. */
export const LONG_HANGUL_CODE = '가나다라마바사아자차카타파하거너더러머버서어저처커터퍼허고노도로모보소오조초'.slice(
  0,
  40,
);

/**
 * popup.html in a tab of `size`, in `theme`: the popup's page itself (the toolbar's popup cannot
 * be resized, themed or scanned by axe, and its downloads reach no Playwright page). Opened on
 * itself, it asks for a URL, as on a tab that is not a web page.
 */
export async function popupTab(
  ext: ExtensionBrowser,
  theme: 'light' | 'dark' = 'light',
  size = POPUP_SIZE,
): Promise<Page> {
  const page = await ext.context.newPage();
  await page.setViewportSize(size);
  await page.emulateMedia({ colorScheme: theme });
  await page.goto(`${ext.origin}/popup.html`);
  await expect(page.locator('#status')).not.toBeEmpty();
  return page;
}

/** Shortens `url` (and `code`) with the popup's form; resolves when a result or an error shows. */
export async function shortenIn(page: Page, url: string, code = ''): Promise<void> {
  await page.locator('#url').fill(url);
  await page.locator('#code').fill(code);
  await page.locator('#shorten').click();
  await expect(page.locator('#shorten')).toBeEnabled();
  await expect(page.locator('#status')).not.toHaveText(/…$/);
}

/** Writes history records straight into the extension's IndexedDB, as earlier syncs left them. */
export async function putHistory(page: Page, entries: Array<Record<string, unknown>>): Promise<void> {
  await page.evaluate(
    (records) =>
      new Promise<void>((resolvePut, reject) => {
        const open = indexedDB.open('linklet');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('history', 'readwrite');
          for (const record of records) tx.objectStore('history').put(record);
          tx.oncomplete = () => {
            db.close();
            resolvePut();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    entries,
  );
}

/** A history record with the fields every one has; `fields` sets the rest. */
export function record(fields: Record<string, unknown>): Record<string, unknown> {
  const now = Date.now();
  return {
    customCode: true,
    expire: '1week',
    attempts: 0,
    createdAt: now,
    expiresAt: now + 7 * 24 * 3600_000,
    server: null,
    status: 'local',
    ...fields,
  };
}

/** The page fits its width: no sideways scrolling, and every visible button and link inside it. */
export async function expectFits(page: Page, screen: string): Promise<void> {
  const layout = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const outside = [...document.querySelectorAll<HTMLElement>('button, a, label.button, input, select')]
      .filter((element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden')
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.left < 0 || box.right > width + 0.5;
      })
      .map((element) => element.id || element.className || element.textContent);
    return { scrollWidth: document.documentElement.scrollWidth, width, outside };
  });
  expect(layout.scrollWidth, `${screen}: no sideways scrolling`).toBeLessThanOrEqual(layout.width);
  expect(layout.outside, `${screen}: every control inside the page`).toEqual([]);
}

/**
 * The lines the first match's text takes (its height over its line height), found and measured in
 * one task of the page: the popup draws its history again as each read and sync lands, and an
 * element found first and measured after could be one already replaced, with no style (NaN).
 */
export function linesOf(page: Page, selector: string): Promise<number> {
  return page.locator(selector).evaluateAll((elements) => {
    const element = elements[0];
    if (element === undefined) return Number.NaN;
    const style = getComputedStyle(element);
    const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.4;
    return Math.round(element.getBoundingClientRect().height / line);
  });
}

/** What the screens never say: the API's field names, code points, header names, its jargon. */
export const API_WORDS = /original_url|custom_code|short_url|U\+[0-9A-F]{4}|percent-encode|X-API-Key|expire_duration/i;

/** Synced links as a pull from the server leaves them, with the title and tags set there. */
export function labelledLinks(siteUrl: (path: string) => string) {
  const synced = { server: 'https://sho.example', status: 'synced' } as const;
  return [
    record({
      ...synced,
      id: 'picnic',
      code: 'picnic',
      originalUrl: siteUrl('/picnic'),
      shortUrl: 'https://sho.example/picnic',
      title: '봄 소풍 안내 — spring picnic',
      tags: ['family', '소풍'],
    }),
    record({
      ...synced,
      id: 'budget',
      code: 'budget',
      originalUrl: siteUrl('/budget'),
      shortUrl: 'https://sho.example/budget',
      title: 'Quarterly budget',
      tags: ['work'],
    }),
    record({
      ...synced,
      id: 'notes',
      code: 'notes',
      originalUrl: siteUrl('/notes'),
      shortUrl: 'https://sho.example/notes',
      title: 'Team notes',
      tags: ['work', 'family'],
    }),
  ];
}
