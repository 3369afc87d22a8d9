import { browser } from 'wxt/browser';

/** A date and time in the browser's language and zone, e.g. "Nov 29, 2026, 3:04 PM". */
export function formatDateTime(epochMs: number): string {
  return new Intl.DateTimeFormat(browser.i18n.getUILanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(
    epochMs,
  );
}
