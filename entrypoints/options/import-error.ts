import { t } from '../../extension/i18n.js';
import { backgroundErrorSentence } from '../../ui/background-error-sentence.js';
import type { MessageKey } from '../../ui/i18n.js';
import { IMPORT_FORMAT_NAMES } from '../../ui/import-format-names.js';

/** The formats an import reads, by their products' names (the same in every language). */
const FORMAT_NAMES = Object.values(IMPORT_FORMAT_NAMES);

/**
 * An import's result in words: a short summary, the problems one per line, and how it went
 * (`ok`: all of it; `warn`: some of it; `false`: none), which colours the summary.
 */
export interface ImportProblem {
  summary: string;
  lines: string[];
  tone?: 'true' | 'warn' | 'false';
}

const BY_MESSAGE: [RegExp, MessageKey][] = [
  [/none of the formats/i, 'importUnknownFormat'],
  [/file is empty/i, 'importEmpty'],
  [/not UTF-8/i, 'importNotUtf8'],
  [/not valid JSON|is not JSON/i, 'importNotJson'],
  [/not a Linklet history file/i, 'importNotHistory'],
];

/**
 * Why an import failed, as the options page shows it: the API and the history reader explain in
 * long English sentences (a list of formats with their columns, a schema path) that read as a
 * wall of red cut mid-word; people get one sentence in their language and the details one per line.
 */
export function importProblem(error: unknown): ImportProblem {
  const message = error instanceof Error ? error.message : String(error);
  const key = BY_MESSAGE.find(([pattern]) => pattern.test(message))?.[1];
  if (key === 'importUnknownFormat') return { summary: t(key), lines: FORMAT_NAMES };
  if (key === 'importNotHistory') {
    // The reader names the first field that is wrong, e.g. `links.3.expiresAt`: a place, not prose.
    const where = /\(([^:()]+):/.exec(message)?.[1];
    return { summary: t(key), lines: where ? [where] : [] };
  }
  if (key) return { summary: t(key), lines: [] };
  return { summary: `${t('importFailedSummary')} ${backgroundErrorSentence(t, error)}`, lines: [] };
}

/** Shows `problem` in the status line, coloured by its tone (a failure without one), and its lines as a list under it (empty: hidden). */
export function showImportProblem(status: HTMLElement, list: HTMLElement, problem: ImportProblem | undefined): void {
  list.replaceChildren(
    ...(problem?.lines ?? []).map((line) => {
      const item = document.createElement('li');
      item.textContent = line;
      item.title = line;
      return item;
    }),
  );
  list.hidden = list.childElementCount === 0;
  if (!problem) return;
  list.dataset.ok = problem.tone ?? 'false';
  status.textContent = problem.summary;
  status.dataset.ok = problem.tone ?? 'false';
}
