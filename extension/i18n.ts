import { browser } from 'wxt/browser';
import { createI18n } from '../ui/i18n.js';

/**
 * The extension's words: the browser picks the language and reads public/_locales itself. One
 * instance for the pages and the background (menus, notifications, error messages).
 */
export const { t, language, localizePage } = createI18n(browser.i18n);
