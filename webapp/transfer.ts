import { byId, h, showError } from '../ui/dom.js';
import { announce } from './announce.js';
import { ApiError, callApi, messageOf, UnreachableError } from './api.js';
import { t } from './i18n.js';

interface ImportSummary {
  created: number;
  unchanged: number;
  conflict: number;
  invalid: number;
  skipped: number;
  results?: Array<{ code?: string; row?: number; status?: string; result?: string; message?: string }>;
  /** Present when rows were left out over the server's import budget. */
  retry_after_seconds?: number;
}

const MAX_PROBLEMS_SHOWN = 50;

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
    showError(error, '');
    result.textContent = '';
    const format = byId<HTMLSelectElement>('export-format').value;
    try {
      const blob = await download(`api/v1/links/export?format=${format}`, signedKey);
      const name = `linklet-links-${new Date().toISOString().slice(0, 10)}.${format}`;
      const link = h('a', { href: URL.createObjectURL(blob), download: name });
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
      result.textContent = t('webExported', [name]);
    } catch (failure) {
      showError(error, messageOf(failure));
    }
  });

  byId('import').addEventListener('click', async () => {
    const signedKey = key();
    const file = byId<HTMLInputElement>('import-file').files?.[0];
    if (signedKey === undefined) return;
    showError(error, '');
    result.textContent = '';
    problems.replaceChildren();
    if (file === undefined) {
      showError(error, t('webImportChooseFile'));
      return;
    }
    try {
      const isCsv = file.type === 'text/csv' || /\.csv$/i.test(file.name);
      const { data } = await callApi<ImportSummary>('api/v1/links/import', {
        method: 'POST',
        key: signedKey,
        body: await file.text(),
        contentType: isCsv ? 'text/csv' : 'application/json',
      });
      const { created, unchanged, conflict, invalid, skipped } = data;
      const n = String;
      result.textContent = t('webImportDone', [n(created), n(unchanged), n(conflict), n(invalid), n(skipped)]);
      if (data.retry_after_seconds) result.textContent += ` ${t('webImportBudget', [n(data.retry_after_seconds)])}`;
      announce(result.textContent);
      const notCreated = (data.results ?? []).filter((row) => (row.status ?? row.result) !== 'created');
      const shown = notCreated.slice(0, MAX_PROBLEMS_SHOWN);
      // The server lists only some rows of a large file; the counts cover them all.
      const notShown = unchanged + conflict + invalid + skipped - shown.length;
      problems.replaceChildren(
        ...shown.map((row) =>
          h('li', {}, `${row.code ?? `#${row.row ?? '?'}`}: ${row.message ?? row.status ?? row.result}`),
        ),
        ...(notShown > 0 ? [h('li', {}, t('webImportMore', [n(notShown)]))] : []),
      );
      onImported();
    } catch (failure) {
      showError(error, messageOf(failure));
    }
  });
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
