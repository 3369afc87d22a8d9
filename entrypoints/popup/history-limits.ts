import type { HistoryEntry } from '../../extension/history/history-entry.js';
import { language, t } from '../../extension/i18n.js';
import { formatDateTime } from '../../ui/format-date.js';
import { isRealDate } from '../../ui/real-date.js';

/**
 * Short labels for a synced link's rules and limits, set on the server (the web app edits them;
 * the popup only shows them): "Rules", "12 of 100 visits", "Starts 1 Dec 2026, 09:00". The
 * "Rules" label's tooltip says what they do and where to change them.
 */
export function historyLimitLabels(entry: HistoryEntry, now: number = Date.now()): HTMLElement[] {
  const labels: HTMLElement[] = [];
  const badge = (className: string, text: string, title?: string) => {
    const span = document.createElement('span');
    span.className = `badge ${className}`;
    span.textContent = text;
    if (title) span.title = title;
    return span;
  };
  if (entry.hasRules) labels.push(badge('rules', t('historyRules'), t('historyRulesTitle')));
  // A stored record is read as it was written: a damaged limit or start shows nothing rather than NaN.
  if (Number.isSafeInteger(entry.maxVisits) && (entry.maxVisits as number) >= 1) {
    const format = new Intl.NumberFormat(language()).format;
    const limit = entry.maxVisits as number;
    const used = Math.min(Number.isSafeInteger(entry.clicks) ? (entry.clicks as number) : 0, limit);
    labels.push(badge('visit-limit', t('badgeVisits', [format(used), format(limit)])));
  }
  if (entry.validSince !== undefined && isRealDate(entry.validSince) && entry.validSince > now) {
    labels.push(badge('starts', t('badgeStarts', [formatDateTime(entry.validSince, language())])));
  }
  return labels;
}
