import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readHistory } from '../fixtures.js';
import { expect, shortenWithForm, test } from './fixtures.js';

// What the pages look like and which language they speak: the theme's font on every control, and
// the Korean UI when the browser's language is Korean.

const ko = JSON.parse(readFileSync(resolve('public/_locales/ko/messages.json'), 'utf8')) as Record<
  string,
  { message: string }
>;

/** Computed font size (px) and family of every element matching each selector. */
const fontsOf = (selectors: string[]) => `(${JSON.stringify(selectors)}).flatMap((selector) =>
  [...document.querySelectorAll(selector)].map((element) => {
    const style = getComputedStyle(element);
    return { selector, size: style.fontSize, family: style.fontFamily.split(',')[0].trim() };
  }))`;

test('text and controls use the theme font at 14 px; small print at 12 px', async ({ ext, site }) => {
  const popup = await ext.openPopup();
  await shortenWithForm(popup, { url: site.url('/look') });
  // The history redraws after the result shows, so its row may come a moment later.
  await popup.waitFor(`!!document.querySelector('.history-item .actions button')`, 'the new link in the history');
  const body = ['body', 'p#status', 'input#url', 'input#code', 'select#expire', 'button#shorten', 'button#copy'];
  const small = ['label[for="url"]', '.history-item .original-url', '.history-item .actions button'];
  for (const font of await popup.evaluate<Array<{ selector: string; size: string; family: string }>>(fontsOf(body))) {
    expect(font, font.selector).toEqual({ selector: font.selector, size: '14px', family: 'system-ui' });
  }
  const smallFonts = await popup.evaluate<Array<{ selector: string; size: string }>>(fontsOf(small));
  expect(new Set(smallFonts.map((font) => font.selector))).toEqual(new Set(small));
  for (const font of smallFonts) expect(font.size, font.selector).toBe('12px');

  const options = await ext.openTab(`${ext.origin}/options.html`);
  for (const font of await options.evaluate<Array<{ selector: string; size: string; family: string }>>(
    fontsOf(['body', 'input#server-url', 'select#default-expire', 'button#test-connection', 'button#save']),
  )) {
    expect(font, font.selector).toEqual({ selector: font.selector, size: '14px', family: 'system-ui' });
  }
});

test('in a Korean browser the popup and options speak Korean', async ({ launch, site }) => {
  const korean = await launch({ lang: 'ko' });
  const popup = await korean.openPopup();
  expect(await popup.evaluate('document.documentElement.lang')).toMatch(/^ko/);
  expect(await popup.text('#status')).toBe(ko.errorNotShortenable?.message);
  expect(await popup.text('#shorten')).toBe(ko.shorten?.message);
  expect(await popup.text('#history-heading')).toBe(ko.historyHeading?.message);
  expect(await popup.text('#mode')).toBe(ko.modeLocal?.message);

  const pageUrl = site.url('/korean');
  await shortenWithForm(popup, { url: pageUrl });
  // A local link is shown, not copied unasked, and the popup says why.
  expect(await popup.text('#status')).toBe(ko.localNotCopied?.message);
  expect(await popup.text('#result-state')).toBe(ko.statusLocal?.message);
  // The history redraws after the result shows, so its row may come a moment later.
  await expect.poll(async () => (await readHistory(popup)).map((item) => item.originalUrl)).toEqual([pageUrl]);

  const options = await korean.openTab(`${korean.origin}/options.html`);
  expect(await options.text('h1')).toBe(ko.optionsTitle?.message);
});
