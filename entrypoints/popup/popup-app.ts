import { browser } from 'wxt/browser';
import { EXPIRE_DURATIONS, type ExpireDuration } from '../../core/rules/expiry.js';
import { isOpenableShortUrl } from '../../extension/backend/local-backend.js';
import type { HistoryEntry } from '../../extension/history/history-entry.js';
import { copyUnasked, notMadeYet } from '../../extension/history/link-readiness.js';
import { language, t } from '../../extension/i18n.js';
import { backgroundApi } from '../../extension/pages/background-client.js';
import { syncProblemText } from '../../extension/pages/sync-problem.js';
import { loadSettings, type Settings } from '../../extension/settings.js';
import { showCopied } from '../../ui/copied-feedback.js';
import { copyText } from '../../ui/copy-text.js';
import { expireLabel } from '../../ui/expire-label.js';
import { formatDateTime } from '../../ui/format-date.js';
import { lengthProblem } from '../../ui/length-problem.js';
import { withScheme } from '../../ui/with-scheme.js';
import { confirmDelete } from './confirm-delete.js';
import { messageOf, showError, showFieldError, showShortenError } from './form-errors.js';
import { type HistoryAction, renderHistory } from './history-view.js';
import { showLocalModeIntro } from './local-mode.js';
import { chosenRenewal } from './renew-choice.js';
import { hideResult, showResult } from './result-view.js';
import { setUpTagFilter } from './tag-filter.js';

// A view: the background makes, records, syncs and deletes links; the popup asks and shows.
const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;
const api = backgroundApi();
/** The server whose links Disable/Enable and Delete act on (set with an API key), if any. */
let managed: string | undefined;
const tagFilter = setUpTagFilter($('#tag-filter'), $('#tag-filter-box'), () => void refreshHistory());

function say(message: string): void {
  $('#status').textContent = message;
}

/** Counts history reads: only the newest one draws (see refreshHistory). */
let historyReads = 0;

/**
 * Shows the background's history; if it cannot answer, says so instead of leaving a stale list.
 * Reads may overlap (the opening read and the one after the shorten, a search being typed): an
 * older answer landing last would draw a list without the newest link, so only the newest draws.
 */
async function refreshHistory(): Promise<void> {
  const read = ++historyReads;
  try {
    const query = { query: $<HTMLInputElement>('#search').value, tag: tagFilter.value(), limit: 100 };
    const list = () => api.listHistory(query);
    // A read, so safe to ask twice: a background stopped mid-answer starts again for the second.
    const entries = await list().catch(list);
    const tags = await api.listTags().catch(() => []);
    if (read !== historyReads) return;
    tagFilter.fill(tags);
    // A Delete being confirmed stays open across a re-render (a sync's pull redraws the list).
    const confirming = document.querySelector<HTMLElement>('#history .confirm-delete');
    const confirmingId = confirming?.closest<HTMLElement>('.history-item')?.dataset.id;
    renderHistory(
      $('#history'),
      entries,
      (action, entry, button) => {
        onHistoryAction(action, entry, button).catch((error) => showError(messageOf(error)));
      },
      (entry) => managed !== undefined && entry.status === 'synced' && entry.server === managed,
      (tag) => tagFilter.choose(tag),
    );
    if (confirming && confirmingId !== undefined) {
      document.querySelector(`#history .history-item[data-id="${CSS.escape(confirmingId)}"]`)?.append(confirming);
    }
    $('#history-empty').hidden = entries.length > 0;
    // A search or tag that finds nothing is not an empty history.
    $('#history-empty').textContent = t(query.query.trim() !== '' || query.tag !== '' ? 'webNoLinks' : 'historyEmpty');
  } catch (error) {
    if (read === historyReads) showError(messageOf(error));
  }
}

/** Copies, and says so where it happened: the button reads "Copied" for 2 s (if one was pressed). */
async function copyAndSay(text: string, button?: HTMLElement): Promise<void> {
  if (!isOpenableShortUrl(text)) return showError(t('errorNotAWebLink'));
  const copied = await copyText(text);
  say(copied ? t('copied') : t('copyFailed'));
  if (copied && button) showCopied(button, t('copiedShort'));
}

/**
 * Asks the background to sync: it alone pushes, so pushes never overlap. `force` retries every
 * pending link now; without it only due ones go and the alarm is set for the rest.
 */
async function syncNow(force: boolean): Promise<void> {
  const report = await api.sync({ force }).catch(() => undefined);
  // A revoked key or a server past a bound stops the sync silently otherwise: the user would only
  // notice missing links.
  const problem = report && syncProblemText(report);
  if (problem) showError(problem);
  await refreshHistory();
}

async function shorten(settings: Settings, url: string, code: string, expire: ExpireDuration, reuse: boolean) {
  showError(undefined);
  say(t('shortening'));
  $<HTMLButtonElement>('#shorten').disabled = true;
  try {
    // The background also starts the sync of a pending link.
    const entry = await api.shorten({ url, code, expire }, { reuse });
    // A record from before the checks (reused) may hold a URL that must not leave the extension.
    if (entry.shortUrl && !isOpenableShortUrl(entry.shortUrl)) throw new Error(t('errorNotAWebLink'));
    showResult(entry);
    // Only a link anyone can open goes on the clipboard unasked; a local or pending one says why not.
    const notCopied = entry.status === 'local' ? 'localNotCopied' : notMadeYet(entry) ? 'pendingNotCopied' : undefined;
    if (settings.autoCopy && copyUnasked(entry)) await copyAndSay(entry.shortUrl, $('#copy'));
    else say(t(settings.autoCopy && notCopied ? notCopied : 'shortened'));
    (notMadeYet(entry) ? $('#short-url') : $('#copy')).focus();
  } catch (error) {
    say('');
    // The previous link and its QR code would read as this attempt's answer.
    hideResult();
    showShortenError(error);
  } finally {
    $<HTMLButtonElement>('#shorten').disabled = false;
    await refreshHistory();
  }
}

async function onHistoryAction(action: HistoryAction, entry: HistoryEntry, button: HTMLElement): Promise<void> {
  // A new action clears the previous one's result and error.
  showError(undefined);
  say('');
  if (action === 'copy') return copyAndSay(entry.shortUrl, button);
  if (action === 'open') {
    // Only web URLs and this extension's open page: never `data:`, `file:` or `chrome:`.
    if (!isOpenableShortUrl(entry.shortUrl)) return showError(t('errorNotAWebLink'));
    await browser.tabs.create({ url: entry.shortUrl });
    return;
  }
  if (action === 'delete') {
    const onServer = managed !== undefined && entry.status === 'synced' && entry.server === managed;
    const item = button.closest<HTMLElement>('.history-item');
    if (item && !(await confirmDelete(item, entry, onServer))) return;
    await api.deleteLink(entry.id);
    await refreshHistory();
    // A Delete the server could not take yet stays listed, marked as waiting.
    const waiting = document.querySelector(`#history [data-id="${CSS.escape(entry.id)}"][data-queued="delete"]`);
    say(waiting ? t('changeQueued') : t(onServer ? 'deletedOnServer' : 'deletedHere'));
    return;
  }
  if (action === 'disable' || action === 'enable') {
    const report = await api.setDisabled(entry.id, action === 'disable');
    if (report.keyRefused) showError(t('errorKeyRefused'));
    say(report.changesWaiting ? t('changeQueued') : t('changeSaved'));
    return refreshHistory();
  }
  if (action === 'renew') {
    const renewed = await api.renewLink(entry.id, chosenRenewal(button));
    await refreshHistory();
    say(t('renewedNote', [formatDateTime(renewed.expiresAt, language())]));
    return;
  }
  say(t('retrying'));
  try {
    await api.retryLink(entry.id, { newCode: action === 'new-code' });
  } catch (error) {
    say('');
    showError(messageOf(error));
  }
  await refreshHistory();
}

/**
 * The popup past its first paint: main.ts has localized the page and shown the tab's `url`; this
 * reads the settings, wires the form, draws the history and shortens the tab.
 */
export async function startPopup(url: string): Promise<void> {
  const settings = await loadSettings();
  managed = settings.serverUrl && settings.apiKey ? settings.serverUrl : undefined;
  const expireSelect = $<HTMLSelectElement>('#expire');
  expireSelect.append(...EXPIRE_DURATIONS.map((value) => new Option(expireLabel(t, value), value)));
  expireSelect.value = settings.defaultExpire;
  $('#mode').textContent = settings.serverUrl ? new URL(settings.serverUrl).host : t('modeLocal');
  $('#mode').title = settings.serverUrl ? t('modeSyncedTitle') : t('modeLocalTitle');

  $('#open-options').addEventListener('click', (event) => {
    event.preventDefault();
    void browser.runtime.openOptionsPage();
  });
  $('#copy').addEventListener('click', () => void copyAndSay($<HTMLInputElement>('#short-url').value, $('#copy')));
  $('#search').addEventListener('input', () => void refreshHistory());
  $('#shorten-form').addEventListener('submit', (event) => {
    event.preventDefault();
    // example.com/page is taken as https://example.com/page, and shown so in the field.
    const url = withScheme($<HTMLInputElement>('#url').value);
    $<HTMLInputElement>('#url').value = url;
    if (!url) {
      hideResult();
      return showError(t('errorUrlRequired'));
    }
    const code = $<HTMLInputElement>('#code').value.trim();
    // Checked before the background is asked, counted as the core counts (after NFC): the field
    // has no maxlength, which counts UTF-16 units and would cut a code pasted as decomposed Hangul.
    const problem = lengthProblem(t, 'code', code);
    if (problem !== undefined) return showFieldError('code', problem);
    void shorten(settings, url, code, expireSelect.value as ExpireDuration, false);
  });

  // The history is drawn alongside the shorten, which draws it again with the new link.
  void refreshHistory();
  await showLocalModeIntro($('#local-intro'), settings.serverUrl);
  if (/^https?:/i.test(url)) await shorten(settings, url, '', settings.defaultExpire, true);
  else {
    say(t('errorNotShortenable'));
    $('#url').focus();
  }
  // Opening the popup is the moment a user looks: retry what waits for the server.
  if (settings.serverUrl) void syncNow(true);
}
