import type { Page } from '@playwright/test';
import { expect, type WebAppServer } from './fixtures.js';

/** The sizes SPEC "Screens" is checked at: a phone and a laptop. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/** The words a test looks for, in the two languages of the screens. */
export const WORDS = {
  'en-US': { apiKey: 'API key', signIn: 'Sign in', copy: 'Copy', copied: 'Copied', details: 'Details', hide: 'Hide' },
  'ko-KR': { apiKey: 'API 키', signIn: '로그인', copy: '복사', copied: '복사됨', details: '상세', hide: '숨기기' },
} as const;

/** What the screens may never show (SPEC "Screens": words for people). */
export const API_WORDS = /original_url|custom_code|U\+[0-9A-F]{4}|percent-encode|X-API-Key|Authorization|header/i;

/** A 300-character target: what made one row 14 lines tall. */
export function longUrl(index: number): string {
  const base = `https://example.com/${index}/a-very-long-article-title-that-goes-on-and-on/`;
  return `${base}${'segment-of-a-long-path/'.repeat(20)}`.slice(0, 293) + `?n=${String(index).padStart(4, '0')}`;
}

/** A code of 40 Hangul syllables, different for each index. */
export function hangulCode(index: number): string {
  return Array.from({ length: 40 }, (_, k) => String.fromCharCode(0xac00 + ((index * 41 + k * 97) % 11172))).join('');
}

/** Makes `count` links for `key` with long targets and, every other one, a 40-syllable Hangul code. */
export async function makeStressLinks(server: WebAppServer, key: string, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const body = { original_url: longUrl(index), ...(index % 2 === 0 && { custom_code: hangulCode(index) }) };
    const made = await server.api('POST', '/api/v1/shorten', { key, body });
    expect(made.status, made.body.message).toBe(201);
  }
}

/** Signs in through the form in the page's language, and waits for the first page of links. */
export async function signIn(page: Page, key: string, locale: keyof typeof WORDS): Promise<void> {
  await page.getByLabel(WORDS[locale].apiKey, { exact: true }).fill(key);
  await page.getByRole('button', { name: WORDS[locale].signIn, exact: true }).click();
  await expect(page.locator('#links-body tr[data-code]').first()).toBeVisible();
}

/** The page's width and how far it scrolls sideways: the second may not exceed the first. */
export async function sidewaysOverflow(page: Page): Promise<{ viewport: number; scrollWidth: number }> {
  return page.evaluate(() => ({
    viewport: window.innerWidth,
    scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
  }));
}

/**
 * Every link's box and its actions' boxes, and whether its one-line cells are cut rather than
 * wrapped, measured in the page.
 */
export async function measureRows(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLTableRowElement>('#links-body tr[data-code]')].map((row) => {
      const box = row.getBoundingClientRect();
      const oneLine = [...row.querySelectorAll<HTMLElement>('th.short, td.target')].map((cell) => ({
        height: cell.getBoundingClientRect().height,
        lineHeight: Number.parseFloat(getComputedStyle(cell).lineHeight),
        cut: cell.scrollWidth > cell.clientWidth,
        title: cell.querySelector('[title]')?.getAttribute('title') ?? '',
      }));
      const actions = [...row.querySelectorAll<HTMLElement>('button[data-action]')].map((button) => {
        const rect = button.getBoundingClientRect();
        return { left: rect.left, right: rect.right, height: rect.height, text: button.textContent ?? '' };
      });
      const badge = row.querySelector<HTMLElement>('.badge')?.getBoundingClientRect().height ?? 0;
      const time = row.querySelector<HTMLElement>('time')?.getBoundingClientRect().height ?? 0;
      return { code: row.dataset.code ?? '', height: box.height, width: box.width, oneLine, actions, badge, time };
    }),
  );
}
