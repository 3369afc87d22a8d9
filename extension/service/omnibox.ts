import { browser } from 'wxt/browser';
import type { HistoryEntry } from '../history/history-entry.js';
import { t } from '../i18n.js';
import { escapeSuggestionXml, omniboxSuggestion, omniboxTarget } from './omnibox-words.js';
import { type AnnounceDeps, shortenAndAnnounce } from './shorten-and-announce.js';

/** What the omnibox needs beyond the menu's deps: whether a server is set (for the suggestion's words). */
export interface OmniboxDeps extends AnnounceDeps {
  hasServer(): Promise<boolean>;
}

/** Firefox shows a suggestion as plain text; Chromium parses it as XML. */
const suggestionsAreXml = () => typeof (browser.runtime as { getBrowserInfo?: unknown }).getBrowserInfo !== 'function';

async function suggestionFor(text: string, deps: OmniboxDeps): Promise<string> {
  const { key, values } = omniboxSuggestion(text, await deps.hasServer());
  const words = t(key, values);
  return suggestionsAreXml() ? escapeSuggestionXml(words) : words;
}

/** The tab the keyword was typed in: accepting the omnibox grants `activeTab`, so its URL is readable. */
async function currentTabUrl(): Promise<string | undefined> {
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.url;
}

/**
 * Enter after `ln`: shortens the URL typed (or the current tab, given as `tabUrl` or asked of the
 * browser) and copies it as the menu does, told in a notification. Tests call it directly.
 */
export async function handleOmniboxInput(
  text: string,
  deps: OmniboxDeps,
  tabUrl?: string,
): Promise<HistoryEntry | undefined> {
  const url = omniboxTarget(text, text.trim() === '' ? (tabUrl ?? (await currentTabUrl())) : undefined);
  return shortenAndAnnounce(url, deps);
}

/** Wires the keyword's events; call synchronously in the background's main(). */
export function registerOmnibox(deps: OmniboxDeps): void {
  browser.omnibox.onInputStarted.addListener(() => {
    void suggestionFor('', deps).then((description) => browser.omnibox.setDefaultSuggestion({ description }));
  });
  browser.omnibox.onInputChanged.addListener((text, suggest) => {
    void suggestionFor(text, deps)
      .then((description) => browser.omnibox.setDefaultSuggestion({ description }))
      // Chromium draws the default line when the keystroke's suggestions arrive, and a line set
      // after the listener returned would wait for the next keystroke (showing "…hello-linkle"
      // for "…hello-linklet"): an empty list of suggestions, sent once it is set, redraws it now.
      .then(() => suggest([]));
  });
  browser.omnibox.onInputEntered.addListener((text) => void handleOmniboxInput(text, deps));
}

/** The line Enter's suggestion shows now, for the tests. */
export const omniboxSuggestionFor = suggestionFor;
