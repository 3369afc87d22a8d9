import { ApiError } from '../../client/api-errors.js';
import { EXPIRE_DURATIONS, type ExpireDuration } from '../../core/rules/expiry.js';
import { localizePage, t } from '../../extension/i18n.js';
import { backgroundApi } from '../../extension/pages/background-client.js';
import { syncProblemText } from '../../extension/pages/sync-problem.js';
import { probeServer } from '../../extension/server/probe-server.js';
import { withServerScheme } from '../../extension/server/server-address.js';
import { whoAmI } from '../../extension/server/server-client.js';
import { loadSettings, normalizeServerUrl, settingsItem } from '../../extension/settings.js';
import { syncStatusFor, syncStatusItem } from '../../extension/sync/sync-status.js';
import { backgroundErrorSentence } from '../../ui/background-error-sentence.js';
import { expireLabel } from '../../ui/expire-label.js';
import { type ImportProblem, importProblem, showImportProblem } from './import-error.js';
import { historyImportSummary, linksImportSummary, uploadSummary } from './import-summary.js';

// The settings live in extension storage; the links are the background's, asked for through its API.
const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;
const api = backgroundApi();

function report(selector: string, message: string, ok: boolean): void {
  // A new result replaces the last one whole: an old import's problem list would read as this one's.
  if (selector === '#data-status') showImportProblem($('#data-status'), $('#import-problems'), undefined);
  $(selector).textContent = message;
  $(selector).dataset.ok = String(ok);
}

/** The server field as a base URL, or undefined after telling the user what is wrong with it. */
function serverUrlFromField(): string | undefined {
  try {
    // sho.rt is taken as https://sho.rt, localhost:8080 as http://localhost:8080 (server-address.ts).
    const typed = withServerScheme($<HTMLInputElement>('#server-url').value);
    $<HTMLInputElement>('#server-url').value = typed;
    return normalizeServerUrl(typed);
  } catch {
    report('#connection-result', t('errorServerUrl'), false);
    $('#server-url').focus();
    return undefined;
  }
}

async function testConnection(): Promise<void> {
  const server = serverUrlFromField();
  if (!server) return;
  report('#connection-result', t('testing'), true);
  const result = await probeServer((input, init) => fetch(input, init), server);
  if (!result.ok) {
    // The probe's reason is for the console; people get a sentence in their language.
    const key = result.reason.startsWith('unreachable') ? 'connectionUnreachable' : 'connectionNotLinklet';
    console.info(`Linklet: no Linklet server at ${server}: ${result.reason}`);
    return report('#connection-result', t(key), false);
  }
  const apiKey = $<HTMLInputElement>('#api-key').value.trim();
  if (!apiKey) return report('#connection-result', t('connectionOk', [result.name, result.endpoint]), true);
  // The key is checked too: a wrong or revoked one would otherwise only show when links stop syncing.
  try {
    const owner = await whoAmI({ server, apiKey, fetch: (input, init) => fetch(input, init) });
    report('#connection-result', t('connectionOwner', [result.name, result.endpoint, owner.name]), true);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      report('#connection-result', t('connectionKeyRefused'), false);
    else report('#connection-result', t('connectionKeyFailed', [backgroundErrorSentence(t, error)]), false);
  }
}

/** Counts reads of the key status (see showKeyStatus). */
let keyStatusReads = 0;

/**
 * Says what the last sync found wrong (a refused key, a server past a bound of the pull, links
 * left out): links stopped arriving without anyone asking.
 */
async function showKeyStatus(serverUrl: string, apiKey: string): Promise<void> {
  const shown = ++keyStatusReads;
  const problem =
    serverUrl !== '' && apiKey !== '' ? syncProblemText(await syncStatusFor(serverUrl, apiKey)) : undefined;
  // Reads overlap when statuses land close together: the newest read is the one to show.
  if (shown !== keyStatusReads) return;
  $('#key-status').textContent = problem ?? '';
  $('#key-status').hidden = problem === undefined;
}

async function save(): Promise<void> {
  const serverUrl = serverUrlFromField();
  if (serverUrl === undefined) return;
  const apiKey = $<HTMLInputElement>('#api-key').value.trim();
  await settingsItem.setValue({
    serverUrl,
    apiKey,
    defaultExpire: $<HTMLSelectElement>('#default-expire').value as ExpireDuration,
    autoCopy: $<HTMLInputElement>('#auto-copy').checked,
  });
  $<HTMLInputElement>('#server-url').value = serverUrl;
  report('#options-status', t('saved'), true);
  // A new key is checked by the sync the saved settings start; its verdict shows when it lands.
  $('#key-status').hidden = true;
}

async function uploadLocal(): Promise<void> {
  const { serverUrl } = await loadSettings();
  if (!serverUrl) return report('#data-status', t('uploadNeedsServer'), false);
  try {
    showDataResult(uploadSummary(await api.uploadLocalLinks()));
  } catch (error) {
    report('#data-status', backgroundErrorSentence(t, error), false);
  }
}

/** Shows an import's or upload's result, coloured by how it went, its problems one per line. */
function showDataResult(result: ImportProblem): void {
  showImportProblem($('#data-status'), $('#import-problems'), result);
}

/** Hands the text to the browser as a download. */
function download(text: string, type: string, name: string, extension: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = `${name}-${new Date().toISOString().slice(0, 10)}.${extension}`;
  link.click();
  URL.revokeObjectURL(link.href);
}

async function exportHistory(): Promise<void> {
  report('#data-status', '', true);
  download(await api.exportHistory(), 'application/json', 'linklet-history', 'json');
}

/** The links in the server's export shape, which a server's import (or another shortener) reads. */
async function exportLinks(format: 'csv' | 'json'): Promise<void> {
  report('#data-status', '', true);
  const type = format === 'csv' ? 'text/csv' : 'application/json';
  download(await api.exportLinks(format), type, 'linklet-links', format);
}

async function importFile(file: File): Promise<void> {
  report('#data-status', t('importing'), true);
  try {
    const imported = await api.importFile(await file.text());
    if (imported.kind === 'links') return showDataResult(linksImportSummary(imported.report));
    const { serverUrl } = await loadSettings();
    showDataResult(historyImportSummary(imported.report, serverUrl));
  } catch (error) {
    report('#data-status', '', false);
    showDataResult(importProblem(error));
  }
}

async function main(): Promise<void> {
  localizePage(document);
  const settings = await loadSettings();
  const expire = $<HTMLSelectElement>('#default-expire');
  expire.append(...EXPIRE_DURATIONS.map((value) => new Option(expireLabel(t, value), value)));
  expire.value = settings.defaultExpire;
  $<HTMLInputElement>('#server-url').value = settings.serverUrl;
  $<HTMLInputElement>('#auto-copy').checked = settings.autoCopy;
  $<HTMLInputElement>('#api-key').value = settings.apiKey;
  // Watched before the first read: a status written between the read and the watch would
  // otherwise never be shown.
  syncStatusItem.watch(async () => {
    const saved = await loadSettings();
    await showKeyStatus(saved.serverUrl, saved.apiKey);
  });
  await showKeyStatus(settings.serverUrl, settings.apiKey);

  $('#test-connection').addEventListener('click', () => void testConnection());
  $('#options-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void save();
  });
  $('#upload-local').addEventListener('click', () => void uploadLocal());
  $('#export').addEventListener('click', () => void exportHistory());
  $('#export-csv').addEventListener('click', () => void exportLinks('csv'));
  $('#export-json').addEventListener('click', () => void exportLinks('json'));
  $<HTMLInputElement>('#import').addEventListener('change', (event) => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    // One import at a time: the button is off until this one has answered.
    input.disabled = true;
    void importFile(file).finally(() => {
      input.value = '';
      input.disabled = false;
    });
  });
}

void main();
