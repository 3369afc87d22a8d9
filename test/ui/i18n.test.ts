import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { catalogMessages } from '../../ui/catalog-messages.js';
import { expireLabel } from '../../ui/expire-label.js';
import { createI18n } from '../../ui/i18n.js';

// The web app's words come from the extension's catalogs through `catalogMessages`; the
// extension's from `browser.i18n` (test/extension/locales.test.ts). Both go through createI18n.
describe('createI18n over the catalogs', () => {
  it('speaks Korean to a browser that prefers it, with substitutions', () => {
    const { t, language } = createI18n(catalogMessages(['ko-KR', 'en-US']));
    expect(language()).toBe('ko');
    expect(t('menuShortenLink')).toBe('링크 줄이기');
    expect(expireLabel(t, '24h')).toBe('24시간');
  });

  it('speaks English to any other browser, and fills $1… and $$', () => {
    const { t, language } = createI18n(catalogMessages(['fr-FR', 'de']));
    expect(language()).toBe('en');
    expect(t('connectionOk', ['Linklet', 'https://sho.rt/api/v1/shorten'])).toBe(
      'Connected: Linklet answers at https://sho.rt/api/v1/shorten',
    );
  });

  it('shows an unknown key as itself rather than a blank', () => {
    const { t } = createI18n({ getMessage: () => '', getUILanguage: () => 'en' });
    expect(t('copy')).toBe('copy');
  });
});

describe('the language a page says it is in', () => {
  it("is the catalog's, not the browser's: a French browser reading English words gets lang=en", () => {
    // As the extension's browser.i18n answers a French browser: the English catalog, a French UI.
    const english = catalogMessages(['en']);
    const source = { getMessage: english.getMessage, getUILanguage: () => 'fr' };
    const { language, localizePage } = createI18n(source);
    expect(language()).toBe('en');
    const { document: page } = parseHTML('<!doctype html><html><body></body></html>');
    localizePage(page as unknown as Document);
    expect(page.documentElement.lang).toBe('en');
  });

  it('follows the Korean catalog where that is what the words are in', () => {
    const { language } = createI18n({ ...catalogMessages(['ko']), getUILanguage: () => 'ko-KR' });
    expect(language()).toBe('ko');
  });
});
