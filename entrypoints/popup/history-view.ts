import type { HistoryEntry } from '../../extension/history-entry.js';
import { t } from '../../extension/i18n.js';
import { isOpenableShortUrl } from '../../extension/openable-url.js';
import { displayUrl } from '../../extension/ui/display-url.js';
import { formatDateTime } from '../../extension/ui/format-date.js';
import { statusLabel } from '../../extension/ui/status-label.js';

export type HistoryAction = 'copy' | 'open' | 'delete' | 'retry' | 'new-code';

/**
 * Renders the history list. Text goes in through `textContent` only: URLs are user input.
 * Each button names its link in its accessible label, so a screen reader hears which one it acts on.
 */
export function renderHistory(
  list: HTMLUListElement,
  entries: HistoryEntry[],
  onAction: (action: HistoryAction, entry: HistoryEntry) => void,
): void {
  list.replaceChildren(...entries.map((entry) => historyItem(entry, onAction)));
}

function historyItem(entry: HistoryEntry, onAction: (action: HistoryAction, entry: HistoryEntry) => void) {
  const item = document.createElement('li');
  item.className = 'history-item';
  item.dataset.id = entry.id;
  item.dataset.status = entry.status;

  const shortUrl = element('div', 'short-url', entry.shortUrl || t('waitingForServer'));
  const original = element('div', 'original-url', displayUrl(entry.originalUrl));
  original.title = original.textContent ?? '';
  const badge = element('span', 'badge state', statusLabel(entry.status));
  badge.dataset.status = entry.status;
  const meta = element('div', 'muted', `${t('expiresLabel')} ${formatDateTime(entry.expiresAt)} `);
  meta.append(badge);
  item.append(shortUrl, original, meta);
  if (entry.message && entry.status !== 'synced' && entry.status !== 'local') {
    item.append(element('div', entry.status === 'pending' ? 'muted message' : 'error message', entry.message));
  }

  const actions = element('div', 'actions', '');
  const buttons: [HistoryAction, string][] = [];
  // Only a web URL or this extension's open page may be copied or opened.
  if (entry.shortUrl && isOpenableShortUrl(entry.shortUrl)) buttons.push(['copy', t('copy')], ['open', t('open')]);
  if (entry.status === 'conflict' || entry.status === 'failed' || entry.status === 'pending')
    buttons.push(['retry', t('retry')]);
  if (entry.status === 'conflict') buttons.push(['new-code', t('newCode')]);
  buttons.push(['delete', t('delete')]);
  for (const [action, label] of buttons) {
    const button = element('button', action, label) as HTMLButtonElement;
    button.type = 'button';
    button.setAttribute('aria-label', `${label}: ${entry.shortUrl || displayUrl(entry.originalUrl)}`);
    button.addEventListener('click', () => onAction(action, entry));
    actions.append(button);
  }
  item.append(actions);
  return item;
}

function element(tag: string, className: string, text: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
}
