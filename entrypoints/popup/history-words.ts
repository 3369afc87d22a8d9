import type { HistoryEntry } from '../../extension/history/history-entry.js';
import { t } from '../../extension/i18n.js';
import { backgroundErrorSentence } from '../../ui/background-error-sentence.js';
import { isRealDate } from '../../ui/real-date.js';

/**
 * Whether the link's short URL no longer leads anywhere because its time ran out. A record whose
 * date is unknown (an older or damaged one) is not called expired: that would hide Disable on a
 * link that may still work.
 */
export function isExpired(entry: HistoryEntry, now = Date.now()): boolean {
  return isRealDate(entry.expiresAt) && entry.expiresAt <= now;
}

/**
 * The server's or the sync's message about a link, in the popup's words: a refused or conflicting
 * link says why in a sentence of the page's language, never the API's own English.
 */
export function humanMessage(entry: HistoryEntry): string {
  const message = entry.message ?? '';
  if (entry.status === 'conflict')
    return backgroundErrorSentence(t, Object.assign(new Error(message), { status: 409 }));
  return backgroundErrorSentence(t, new Error(message));
}
