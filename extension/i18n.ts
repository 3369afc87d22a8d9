import { browser } from 'wxt/browser';
import type en from '../public/_locales/en/messages.json';

/** Every message the UI shows; a key missing from `en/messages.json` is a type error. */
export type MessageKey = keyof typeof en;

/** The message in the browser's language (English or Korean), with `$1`-style substitutions. */
export function t(key: MessageKey, substitutions?: string | string[]): string {
  return browser.i18n.getMessage(key, substitutions) || key;
}

/**
 * Fills `data-i18n` (text), `data-i18n-label` (aria-label and title) and `data-i18n-placeholder`
 * attributes, and sets the page's language, so the HTML files carry keys instead of English.
 */
export function localizePage(root: Document): void {
  root.documentElement.lang = browser.i18n.getUILanguage();
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
}
