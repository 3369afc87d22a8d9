import { browser } from 'wxt/browser';
import { codeKey } from '../../core/code.js';
import { EXPIRE_DURATIONS, type ExpireDuration } from '../../core/expiry.js';
import { ApiError } from '../../extension/api-client.js';
import { createHistory } from '../../extension/history.js';
import type { HistoryEntry } from '../../extension/history-entry.js';
import { localizePage, t } from '../../extension/i18n.js';
import { createIdbLinkStore } from '../../extension/idb-link-store.js';
import { openLinkletDb } from '../../extension/link-db.js';
import { localBase } from '../../extension/local-backend.js';
import { loadSettings, type Settings } from '../../extension/settings.js';
import { shortenLink } from '../../extension/shorten-link.js';
import { copyText } from '../../extension/ui/copy-text.js';
import { expireLabel } from '../../extension/ui/expire-label.js';
import { formatDateTime } from '../../extension/ui/format-date.js';
import { pageFetch } from '../../extension/ui/page-fetch.js';
import { type HistoryAction, renderHistory } from './history-view.js';
import { showResult } from './result-view.js';

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;
const history = createHistory(() => openLinkletDb());
const store = createIdbLinkStore(() => openLinkletDb());

function say(message: string): void {
  $('#status').textContent = message;
}

function showError(message: string | undefined): void {
  $('#error').textContent = message ?? '';
  $('#error').hidden = !message;
}

async function refreshHistory(): Promise<void> {
  const entries = await history.list({ query: $<HTMLInputElement>('#search').value, limit: 100 });
  renderHistory($('#history'), entries, (action, entry) => void onHistoryAction(action, entry));
  $('#history-empty').hidden = entries.length > 0;
}

async function copyAndSay(text: string): Promise<void> {
  say((await copyText(text)) ? t('copied') : t('copyFailed'));
}

/**
 * Asks the background to sync: it alone pushes, so pushes never overlap. `force` retries every
 * pending link now; without it only due ones go and the alarm is set for the rest.
 */
async function syncNow(force: boolean): Promise<void> {
  await browser.runtime.sendMessage({ type: 'linklet:sync', force }).catch(() => undefined);
  await refreshHistory();
}

async function shorten(settings: Settings, url: string, code: string, expire: ExpireDuration, reuse: boolean) {
  showError(undefined);
  say(t('shortening'));
  $<HTMLButtonElement>('#shorten').disabled = true;
  try {
    const entry = await shortenLink(
      { url, code, expire },
      { settings, history, localFetch: pageFetch(), localBase: localBase() },
      reuse,
    );
    showResult(entry);
    if (settings.autoCopy && entry.shortUrl) await copyAndSay(entry.shortUrl);
    else say(t('shortened'));
    $('#copy').focus();
    if (entry.status === 'pending') void syncNow(false);
  } catch (error) {
    say('');
    showError(await errorMessage(error, settings, code));
  } finally {
    $<HTMLButtonElement>('#shorten').disabled = false;
    await refreshHistory();
  }
}

/**
 * The message for a failed shorten, as the backend worded it. The v1 409 for a taken code does
 * not say when the code frees up (only the legacy one does), so when this browser knows the
 * holder (the bundled backend's store, or a link made here on the server) its expiry is added.
 */
async function errorMessage(error: unknown, settings: Settings, code: string): Promise<string> {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ApiError && error.status === 409 && code)) return message;
  const key = codeKey(code);
  const freeAt = settings.serverUrl
    ? (await history.list()).find(
        (entry) => entry.server === settings.serverUrl && entry.status === 'synced' && codeKey(entry.code) === key,
      )?.expiresAt
    : (await store.findByCodeKey(key))?.expiresAt;
  return freeAt && freeAt > Date.now() ? `${message} ${t('codeFreeAfter', [formatDateTime(freeAt)])}` : message;
}

async function onHistoryAction(action: HistoryAction, entry: HistoryEntry): Promise<void> {
  if (action === 'copy') return copyAndSay(entry.shortUrl);
  if (action === 'open') {
    await browser.tabs.create({ url: entry.shortUrl });
    return;
  }
  if (action === 'delete') {
    await history.remove(entry.id);
    if (entry.status === 'local') await store.deleteByCodeKey(codeKey(entry.code));
    say(t('deleted'));
    return refreshHistory();
  }
  const retried: HistoryEntry =
    action === 'new-code'
      ? { ...entry, code: '', customCode: false, shortUrl: '', status: 'pending' }
      : { ...entry, status: 'pending' };
  await history.put({ ...retried, nextAttemptAt: Date.now() });
  say(t('retrying'));
  await syncNow(true);
}

async function main(): Promise<void> {
  localizePage(document);
  document.title = t('extName');
  const settings = await loadSettings();
  const expireSelect = $<HTMLSelectElement>('#expire');
  expireSelect.append(...EXPIRE_DURATIONS.map((value) => new Option(expireLabel(value), value)));
  expireSelect.value = settings.defaultExpire;
  $('#mode').textContent = settings.serverUrl ? new URL(settings.serverUrl).host : t('modeLocal');
  $('#mode').title = settings.serverUrl ? t('modeSyncedTitle') : t('modeLocalTitle');

  $('#open-options').addEventListener('click', (event) => {
    event.preventDefault();
    void browser.runtime.openOptionsPage();
  });
  $('#copy').addEventListener('click', () => void copyAndSay($<HTMLInputElement>('#short-url').value));
  $('#search').addEventListener('input', () => void refreshHistory());
  $('#shorten-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const url = $<HTMLInputElement>('#url').value.trim();
    if (!url) return showError(t('errorUrlRequired'));
    void shorten(settings, url, $<HTMLInputElement>('#code').value.trim(), expireSelect.value as ExpireDuration, false);
  });

  await refreshHistory();
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  const url = tab?.url ?? '';
  $<HTMLInputElement>('#url').value = url;
  if (/^https?:/i.test(url)) await shorten(settings, url, '', settings.defaultExpire, true);
  else {
    say(t('errorNotShortenable'));
    $('#url').focus();
  }
  // Opening the popup is the moment a user looks: retry what waits for the server.
  if (settings.serverUrl) void syncNow(true);
}

void main();
