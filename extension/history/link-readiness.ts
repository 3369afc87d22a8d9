import type { HistoryEntry } from './history-entry.js';

/**
 * A pending link's short URL does not exist yet (the server was not answering): copying it, its
 * QR code or its downloads would hand out an address that answers 404 until the sync makes it.
 */
export function notMadeYet(entry: Pick<HistoryEntry, 'status'>): boolean {
  return entry.status === 'pending';
}

/**
 * Whether the extension may put a link's short URL on the clipboard unasked (auto-copy from the
 * popup, the context menu, the shortcut, the omnibox): only one anyone can open. A local link's
 * `chrome-extension://…` address opens in this browser alone, and a pending one not at all yet;
 * both are shown, and the user copies them only by asking (a local one) or later (a pending one).
 */
export function copyUnasked(entry: Pick<HistoryEntry, 'status' | 'shortUrl'>): boolean {
  return entry.shortUrl !== '' && entry.status !== 'local' && !notMadeYet(entry);
}
