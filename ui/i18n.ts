import type en from '../public/_locales/en/messages.json';

/** Every message the UI shows; a key missing from `en/messages.json` is a type error. */
export type MessageKey = keyof typeof en;

/**
 * Where the messages come from: `browser.i18n` in the extension, the bundled catalogs on the web
 * (`catalogMessages`). The shape is `browser.i18n`'s, so the extension passes it as is.
 */
export interface MessageSource {
  /** The message with `$1`-style substitutions filled in, or '' for an unknown key. */
  getMessage(key: string, substitutions?: string | string[]): string;
  /** A BCP 47 tag, for `<html lang>` and `Intl`. */
  getUILanguage(): string;
}

/** A message in the source's language, with `$1`-style substitutions. */
export type Translate = (key: MessageKey, substitutions?: string | string[]) => string;

export interface I18n {
  t: Translate;
  /** The language the words are in (the catalog's tag), for `Intl` formats and plural rules. */
  language(): string;
  /**
   * Fills `data-i18n` (text), `data-i18n-label` (aria-label and title) and `data-i18n-placeholder`
   * attributes, and sets the page's language, so the HTML files carry keys instead of English.
   */
  localizePage(root: Document): void;
}

/**
 * The UI's words over an explicit source, so the same labels and pages serve the extension and
 * the web app without either pretending to be the other. The source is read at each call, never
 * at creation: tests and the extension's fake browser may replace its methods afterwards.
 */
export function createI18n(source: MessageSource): I18n {
  // An unknown key shows as itself: visible in a screenshot, never a blank button.
  const t: Translate = (key, substitutions) => source.getMessage(key, substitutions) || key;
  // The catalog's own tag, not the browser's: a French browser reads the English catalog, so its
  // pages are `lang="en"` (a screen reader speaks English) and count and date in English too.
  const language = () => source.getMessage('messagesLanguage') || source.getUILanguage();
  return {
    t,
    language,
    localizePage(root) {
      root.documentElement.lang = language();
      for (const element of root.querySelectorAll<HTMLElement>('[data-i18n]')) {
        element.textContent = t(element.dataset.i18n as MessageKey);
      }
      for (const element of root.querySelectorAll<HTMLElement>('[data-i18n-label]')) {
        const label = t(element.dataset.i18nLabel as MessageKey);
        element.setAttribute('aria-label', label);
        element.title = label;
      }
      for (const element of root.querySelectorAll<HTMLInputElement>('[data-i18n-placeholder]')) {
        element.placeholder = t(element.dataset.i18nPlaceholder as MessageKey);
      }
    },
  };
}
