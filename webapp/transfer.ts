import { IMPORT_TIMEOUT_MS } from '../client/call-linklet.js';
import { byId, h, showError } from '../ui/dom.js';
import { errorSentence } from '../ui/error-sentence.js';
import { announce } from './announce.js';
import { ApiError, callApi, UnreachableError } from './api.js';
import { language, t } from './i18n.js';
import { type ImportAnswer, importProblems, importSummary } from './import-summary.js';

/**
 * Export (`GET /api/v1/links/export?format=csv|json`, saved as a file) and Import (a file posted
 * to `POST /api/v1/links/import` as it is: the server tells Linklet, Shlink, Dub, Sink, YOURLS and
 * Kutt files apart). Rows that were not created are listed with the server's reason.
 */
export function setUpTransfer(key: () => string | undefined, onImported: () => void): void {
  const error = byId('transfer-error');
  const result = byId('transfer-result');
  const problems = byId('import-problems');

  byId('export').addEventListener('click', async () => {
    const signedKey = key();
    if (signedKey === undefined) return;
    // A new action clears the last one's words: an import's problems do not outlive it.
    showError(error, '');
    showResult('');
    problems.replaceChildren();
    const format = byId<HTMLSelectElement>('export-format').value;
    try {
      const blob = await download(`api/v1/links/export?format=${format}`, signedKey);
      const name = `linklet-links-${new Date().toISOString().slice(0, 10)}.${format}`;
      const link = h('a', { href: URL.createObjectURL(blob), download: name });
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
      showResult(t('webExported', [name]), 'done');
    } catch (failure) {
      showError(error, errorSentence(t, failure, 'other').text);
    }
  });

  const importButton = byId<HTMLButtonElement>('import');
  importButton.addEventListener('click', async () => {
    const signedKey = key();
    const file = byId<HTMLInputElement>('import-file').files?.[0];
    if (signedKey === undefined || importButton.disabled) return;
    showError(error, '');
    showResult('');
    problems.replaceChildren();
    if (file === undefined) {
      showError(error, t('webImportChooseFile'));
      return;
    }
    // Working, and cannot be sent twice: the button stays off until the server answers.
    importButton.disabled = true;
    result.setAttribute('aria-busy', 'true');
    showResult(t('webImporting'));
    try {
      const isCsv = file.type === 'text/csv' || /\.csv$/i.test(file.name);
      const { data } = await callApi<ImportAnswer>('api/v1/links/import', {
        method: 'POST',
        key: signedKey,
        raw: { text: await file.text(), contentType: isCsv ? 'text/csv' : 'application/json' },
        // The server reads and creates every row before it answers: more time than one call.
        timeoutMs: IMPORT_TIMEOUT_MS,
      });
      const words = { t, language: language() };
      const summary = importSummary(data, words);
      showResult(summary.text, summary.partial ? 'partial' : 'done');
      announce(summary.text);
      problems.replaceChildren(...importProblems(data, words).map((line) => h('li', {}, line)));
      onImported();
    } catch (failure) {
      showResult('');
      showError(error, errorSentence(t, failure, 'import').text);
    } finally {
      importButton.disabled = false;
      result.removeAttribute('aria-busy');
    }
  });

  /** The transfer's one result line; a partial import is not shown as a success. */
  function showResult(text: string, kind: 'done' | 'partial' | 'working' = 'working'): void {
    result.textContent = text;
    result.className = text === '' ? '' : `transfer-${kind}`;
  }
}

/** The body of a GET as a file, or the API's error. */
async function download(path: string, key: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(new URL(path, document.baseURI), { headers: { 'X-API-Key': key } });
  } catch (failure) {
    throw new UnreachableError(new URL('.', document.baseURI).href, failure);
  }
  if (response.ok) return response.blob();
  const envelope = (await response.json().catch(() => ({}))) as { message?: string };
  throw new ApiError(response.status, envelope.message ?? `The server answered ${response.status}.`);
}
