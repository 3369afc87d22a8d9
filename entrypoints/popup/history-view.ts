import { isOpenableShortUrl } from '../../extension/backend/local-backend.js';
import type { HistoryEntry, QueuedChange } from '../../extension/history/history-entry.js';
import { notMadeYet } from '../../extension/history/link-readiness.js';
import { language, t } from '../../extension/i18n.js';
import { statusLabel } from '../../extension/pages/status-label.js';
import { displayUrl } from '../../ui/display-url.js';
import { formatDateTime } from '../../ui/format-date.js';
import type { MessageKey } from '../../ui/i18n.js';
import { lockIcon } from '../../ui/lock-icon.js';
import { plural } from '../../ui/plural.js';
import { historyLimitLabels } from './history-limits.js';
import { humanMessage, isExpired } from './history-words.js';
import { entryLabels, renewSelect } from './renew-choice.js';

export type HistoryAction = 'copy' | 'open' | 'delete' | 'retry' | 'new-code' | 'disable' | 'enable' | 'renew';

const QUEUED_MESSAGES = {
  delete: 'queuedDelete',
  disable: 'queuedDisable',
  enable: 'queuedEnable',
} as const satisfies Record<QueuedChange, MessageKey>;

/**
 * Renders the history list. Text goes in through `textContent` only: URLs are user input.
 * Each button names its link in its accessible label, so a screen reader hears which one it acts on.
 */
export function renderHistory(
  list: HTMLUListElement,
  entries: HistoryEntry[],
  onAction: (action: HistoryAction, entry: HistoryEntry, button: HTMLElement) => void,
  /** Whether Disable/Enable act on the server for this link (synced there, with an API key). */
  manages: (entry: HistoryEntry) => boolean = () => false,
  /** A tag chip was pressed: the list narrows to that tag. */
  onTag: (tag: string) => void = () => undefined,
): void {
  list.replaceChildren(...entries.map((entry) => historyItem(entry, onAction, manages(entry), onTag)));
}

function historyItem(
  entry: HistoryEntry,
  onAction: (action: HistoryAction, entry: HistoryEntry, button: HTMLElement) => void,
  manageable: boolean,
  onTag: (tag: string) => void,
) {
  // What the link will be once a queued change reaches the server.
  const disabled = entry.queued === 'disable' || (entry.disabled === true && entry.queued !== 'enable');
  const item = document.createElement('li');
  item.className = 'history-item';
  item.dataset.id = entry.id;
  item.dataset.status = entry.status;
  if (entry.fromServer) item.dataset.fromServer = 'true';
  if (entry.queued) item.dataset.queued = entry.queued;
  const expired = isExpired(entry);
  if (expired) item.dataset.expired = 'true';

  const shortUrl = element('div', 'short-url', entry.shortUrl || t('waitingForServer'));
  shortUrl.title = shortUrl.textContent ?? '';
  const original = element('div', 'original-url', displayUrl(entry.originalUrl));
  original.title = original.textContent ?? '';
  const badge = element('span', 'badge state', statusLabel(entry.status));
  badge.dataset.status = entry.status;
  const meta = element('div', 'muted', `${t('expiresLabel')} ${formatDateTime(entry.expiresAt, language())} `);
  meta.append(badge);
  if (expired) meta.append(' ', element('span', 'badge expired', t('statusExpired')));
  if (disabled) meta.append(' ', element('span', 'badge disabled', t('statusDisabled')));
  if (entry.fromServer) meta.append(' ', element('span', 'badge from-server', t('fromServer')));
  if (entry.passwordProtected) {
    const protectedBadge = element('span', 'badge protected', ` ${t('historyProtected')}`);
    protectedBadge.prepend(lockIcon(document));
    meta.append(' ', protectedBadge);
  }
  for (const label of historyLimitLabels(entry)) meta.append(' ', label);
  if (entry.clicks !== undefined) {
    const clicks = plural(t, language(), entry.clicks, { one: 'clicksCountOne', other: 'clicksCount' });
    meta.append(' ', element('span', 'clicks', clicks));
  }
  item.append(shortUrl, original);
  const labels = entryLabels(entry.title, entry.tags, onTag);
  if (labels) item.append(labels);
  item.append(meta);
  // A local link's badge says "Only in this browser" (its title says why); the way to a server is
  // said once, on the result or the first popup's note (local-mode.ts), not under every link.
  if (entry.status === 'local') badge.title = t('localOnlyTitle');
  if (entry.queued) item.append(element('div', 'muted queued', t(QUEUED_MESSAGES[entry.queued])));
  if (entry.message && entry.status !== 'local') {
    const quiet = entry.status === 'pending' || entry.queued !== undefined;
    item.append(element('div', quiet ? 'muted message' : 'error message', humanMessage(entry)));
  }

  const actions = element('div', 'actions', '');
  const buttons: [HistoryAction, string][] = [];
  // Only a web URL or this extension's open page may be copied or opened, and only once it exists.
  if (entry.shortUrl && isOpenableShortUrl(entry.shortUrl) && !notMadeYet(entry))
    buttons.push(['copy', t('copy')], ['open', t('open')]);
  if (entry.status === 'conflict' || entry.status === 'failed' || entry.status === 'pending')
    buttons.push(['retry', t('retry')]);
  if (entry.status === 'conflict') buttons.push(['new-code', t('newCode')]);
  // An expired link cannot be disabled (its short URL already answers that it expired). Renew is
  // on every link it can act on (a local one, or one on the server the options manage): an expired
  // link comes back, a live one gets the chosen time from now.
  if (manageable && entry.queued !== 'delete' && !expired) {
    buttons.push(disabled ? ['enable', t('enable')] : ['disable', t('disable')]);
  }
  if (entry.queued !== 'delete' && (manageable || entry.status === 'local')) {
    buttons.push(['renew', t('renewButton')]);
  }
  if (entry.queued !== 'delete') buttons.push(['delete', t('delete')]);
  for (const [action, label] of buttons) {
    const button = element('button', action, label) as HTMLButtonElement;
    button.type = 'button';
    button.setAttribute('aria-label', `${label}: ${entry.shortUrl || displayUrl(entry.originalUrl)}`);
    button.addEventListener('click', () => onAction(action, entry, button));
    if (action === 'renew') actions.append(renewSelect(entry.shortUrl || displayUrl(entry.originalUrl)));
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
