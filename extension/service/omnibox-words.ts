import type { MessageKey } from '../../ui/i18n.js';
import { withScheme } from '../../ui/with-scheme.js';

/** The word typed before a URL in the address bar (the manifest's `omnibox.keyword`). */
export const OMNIBOX_KEYWORD = 'ln';

/**
 * What Enter shortens for the text typed after the keyword: nothing is the current tab, anything
 * else the URL typed (`example.com/page` taken as `https://example.com/page`, as in the popup).
 */
export function omniboxTarget(text: string, tabUrl: string | undefined): string | undefined {
  const typed = text.trim();
  return typed === '' ? tabUrl : withScheme(typed);
}

/**
 * The suggestion line: what Enter will do, as a message key and its substitution. With no server
 * the link opens in this browser only and is not copied, so the line says that instead of "copy".
 */
export function omniboxSuggestion(text: string, hasServer: boolean): { key: MessageKey; values: string[] } {
  const typed = text.trim();
  if (typed === '') return { key: hasServer ? 'omniboxTab' : 'omniboxTabLocal', values: [] };
  return { key: hasServer ? 'omniboxUrl' : 'omniboxUrlLocal', values: [withScheme(typed)] };
}

/** Chromium reads a suggestion as XML (`<url>`, `<match>`); a URL's `&` or `<` must be escaped there. */
export function escapeSuggestionXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
