import type { Page } from '@playwright/test';
import { expect, type WebAppServer } from './fixtures.js';

/** The sizes SPEC "Screens" is checked at: a phone and a laptop. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/** The words a test looks for, in the two languages of the screens. */
export const WORDS = {
  'en-US': {
    apiKey: 'API key',
    signIn: 'Sign in',
    copy: 'Copy',
    copied: 'Copied',
    details: 'Details',
    hide: 'Hide',
    disable: 'Disable',
    disabledNote: 'Disabled: its short URL no longer leads anywhere.',
  },
  // One word per action: Disable is 사용 중지 here as in the extension and on the short-URL pages.
  'ko-KR': {
    apiKey: 'API 키',
    signIn: '로그인',
    copy: '복사',
    copied: '복사됨',
    details: '상세',
    hide: '숨기기',
    disable: '사용 중지',
    disabledNote: '사용 중지함: 짧은 URL이 더 이상 연결되지 않습니다.',
  },
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

/**
 * A 35-character code that differs from the others only at its end: a list that cuts codes shows
 * them all alike (the issue: 22 links reading `http://localhost:8080/rep…`).
 */
export function reportCode(index: number): string {
  return `quarterly-report-for-the-board-${String(index).padStart(4, '0')}`;
}

/**
 * Makes `count` links for `key` with long targets that differ only at their end; every other one
 * with a 40-syllable Hangul code, every fourth with a long code shared but for its end, the rest
 * with a made code.
 */
export async function makeStressLinks(server: WebAppServer, key: string, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const code = index % 2 === 0 ? hangulCode(index) : index % 4 === 1 ? reportCode(index) : undefined;
    const body = { original_url: longUrl(index), ...(code && { custom_code: code }) };
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
 * The text of each element matching `selector` that is on screen: its text, less any character
 * that its own box or a box around it cuts off. Measured character by character, so an ellipsis
 * from `text-overflow` or a clip by `overflow: hidden` counts as cut whatever the markup.
 */
export async function visibleText(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const shown = (element: Element): string => {
      const clips: DOMRect[] = [];
      for (let box: Element | null = element; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).overflow !== 'visible') clips.push(box.getBoundingClientRect());
      }
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      let text = '';
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const chars = Array.from(node.textContent ?? '');
        let offset = 0;
        for (const char of chars) {
          const range = document.createRange();
          range.setStart(node, offset);
          range.setEnd(node, offset + char.length);
          offset += char.length;
          const rect = range.getBoundingClientRect();
          const inside = clips.every(
            (clip) => rect.left >= clip.left - 0.5 && rect.right <= clip.right + 0.5 && rect.width > 0,
          );
          text += inside ? char : '';
        }
      }
      return text;
    };
    return [...document.querySelectorAll(selector)].map(shown);
  }, selector);
}

/**
 * Every link's box and its actions' boxes, its target cell's height and tooltip, and what of its
 * short URL and target is on screen, measured in the page.
 */
export async function measureRows(page: Page) {
  const shortUrls = await visibleText(page, '#links-body tr[data-code] th.short a');
  const targets = await visibleText(page, '#links-body tr[data-code] td.target');
  const rows = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLTableRowElement>('#links-body tr[data-code]')].map((row) => {
      const box = row.getBoundingClientRect();
      // The target's text, not its cell: a table cell is as tall as its row.
      const oneLine = [...row.querySelectorAll<HTMLElement>('td.target')].map((cell) => ({
        height: (cell.firstElementChild ?? cell).getBoundingClientRect().height,
        lineHeight: Number.parseFloat(getComputedStyle(cell).lineHeight),
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
  return rows.map((row, index) => ({
    ...row,
    shownShortUrl: shortUrls[index] ?? '',
    shownTarget: targets[index] ?? '',
  }));
}
