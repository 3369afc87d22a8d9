import { importRowReason } from '../ui/import-row-reason.js';
import { plural } from '../ui/plural.js';
import type { Words } from './clicks-chart.js';

/** `POST /api/v1/links/import`'s answer. */
export interface ImportAnswer {
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

/** An import's result in short: created of how many, then the other outcomes counted; `partial` when not all were created. */
export function importSummary(answer: ImportAnswer, words: Words): { text: string; partial: boolean } {
  const { t, language } = words;
  const { created, unchanged, conflict, invalid, skipped } = answer;
  const total = created + unchanged + conflict + invalid + skipped;
  const keys = { one: 'webImportCreatedOne', other: 'webImportCreatedOther' } as const;
  const number = new Intl.NumberFormat(language);
  // The noun agrees with the total ("1 of 1 link", "1 of 2 links"), which is $2 here, not $1.
  const form = new Intl.PluralRules(language).select(total) === 'one' ? keys.one : keys.other;
  let text = t(form, [number.format(created), number.format(total)]);
  const partial = created < total;
  if (partial)
    text += ` ${t(
      'webImportCounts',
      [unchanged, conflict, invalid, skipped].map((count) => number.format(count)),
    )}`;
  if (answer.retry_after_seconds) text += ` ${t('webImportBudget', [String(answer.retry_after_seconds)])}`;
  return { text, partial };
}

/**
 * The rows that were not created, one line each: the row's code (or number) and why, in the
 * page's words (the server's reasons are English and speak API). Capped, with a line for the rest.
 */
export function importProblems(answer: ImportAnswer, words: Words): string[] {
  const { t, language } = words;
  const notCreated = (answer.results ?? []).filter((row) => (row.status ?? row.result) !== 'created');
  const lines = notCreated.slice(0, MAX_PROBLEMS_SHOWN).map((row) => {
    const outcome = row.status ?? row.result ?? '';
    // By its reason, not its outcome alone: a "conflict" may be the caller's own link for another address.
    const why = importRowReason(t, { status: outcome, message: row.message });
    const which = row.code || t('webImportRowNumber', [String(row.row ?? '?')]);
    return `${which}: ${why}`;
  });
  // The server lists only some rows of a large file; the counts cover them all.
  const notShown = answer.unchanged + answer.conflict + answer.invalid + answer.skipped - lines.length;
  if (notShown > 0) lines.push(plural(t, language, notShown, { one: 'webImportMoreOne', other: 'webImportMore' }));
  return lines;
}
