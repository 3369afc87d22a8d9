import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readHistory } from '../fixtures.js';
import type { ExtensionUnderTest } from './extension-under-test.js';
import { expect, shortenWithForm, test } from './fixtures.js';
import { popupLayoutProblems, putSyncedLinks } from './popup-layout.js';

// What the pages look like and which language they speak: the theme's font on every control, the
// Korean UI when the browser's language is Korean, and a popup that is not cramped in either.

/** A server address where nothing listens: the links below stay as the last sync left them. */
const DEAD_SERVER = 'http://127.0.0.1:9';

/**
 * The popup over links synced to a server set with a key, so each offers all it can (Copy, Open,
 * Disable, the Renew duration, Renew, Delete) and the Tag select shows: what is cramped, if anything.
 */
async function crampedWithSyncedLinks(ext: ExtensionUnderTest, siteUrl: (path: string) => string) {
  const setup = await ext.openTab(`${ext.origin}/options.html`);
  await setup.evaluate(`(globalThis.browser ?? globalThis.chrome).storage.local.set({
    settings: { serverUrl: '${DEAD_SERVER}', apiKey: 'lk_look', defaultExpire: '1week', autoCopy: false },
  })`);
  await putSyncedLinks(setup, DEAD_SERVER, siteUrl);
  const popup = await ext.openPopup();
  await popup.waitFor(
    `document.querySelectorAll('#history .history-item button.disable').length === 2`,
    'the synced links',
  );
  await popup.waitFor(`!document.querySelector('#tag-filter-box').hidden`, 'the Tag select');
  return popupLayoutProblems(popup);
}

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

  // Every link's actions on one line (never Delete alone on a second), the Tag select whole.
  expect(await crampedWithSyncedLinks(ext, (path) => site.url(path))).toEqual([]);
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
  // A local link is shown, not copied unasked, and the popup says why; the way to a server is
  // said once (the first popup's note says it, so the result does not).
  expect(await popup.text('#status')).toBe(ko.localNotCopied?.message);
  expect(await popup.text('#result-state')).toBe(ko.statusLocal?.message);
  const visibleSetServer = `[...document.querySelectorAll('main a, main p, #status')]
    .filter((el) => el.getClientRects().length > 0 && /서버를 (설정|지정)하세요/.test(el.textContent)).length`;
  expect(await popup.evaluate(visibleSetServer)).toBe(1);
  await popup.click('#local-intro-dismiss');
  expect(await popup.evaluate(visibleSetServer)).toBe(1);
  expect(await popup.evaluate(`document.querySelector('#result-local a').getClientRects().length > 0`)).toBe(true);
  // The history redraws after the result shows, so its row may come a moment later.
  await expect.poll(async () => (await readHistory(popup)).map((item) => item.originalUrl)).toEqual([pageUrl]);

  const options = await korean.openTab(`${korean.origin}/options.html`);
  expect(await options.text('h1')).toBe(ko.optionsTitle?.message);

  expect(await crampedWithSyncedLinks(korean, (path) => site.url(path))).toEqual([]);
});
