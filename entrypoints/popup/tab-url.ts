import { browser } from 'wxt/browser';

/**
 * Set the moment the URL field first shows the tab's URL: the popup's figure of speed (from the
 * document's navigation start), read by `bench/popup-timing.mjs` and the e2e tests. One mark per
 * popup, nothing kept beyond the page.
 */
export const URL_SHOWN_MARK = 'linklet:url-shown';

/** The active tab's URL ('' when it has none the popup may read, e.g. a browser page). */
async function activeTabUrl(): Promise<string> {
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.url ?? '';
}

/**
 * Puts the active tab's URL in `field` and marks the moment. It asks the browser only (no settings,
 * no background): a background busy with a pull, or a storage area busy with its writes, would
 * otherwise hold up the one thing a person waits for when the popup opens.
 */
export async function showTabUrl(field: HTMLInputElement): Promise<string> {
  const url = await activeTabUrl();
  field.value = url;
  performance.mark(URL_SHOWN_MARK, { detail: url });
  return url;
}
