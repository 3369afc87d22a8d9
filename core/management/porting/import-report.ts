/** What happened to each row; the counts of an import are by these. */
export const IMPORT_STATUSES = ['created', 'unchanged', 'conflict', 'invalid', 'skipped'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** What happened to one row, with the reason in words. */
export interface ImportResult {
  row: number;
  code: string;
  status: ImportStatus;
  message: string;
}

/**
 * An import's answer: every row counted, but only some listed (`MAX_LISTED_ROWS`), so the answer
 * stays small whatever the file holds; `resultsOmitted` says how many rows are not listed.
 */
export type ImportReport = Record<ImportStatus, number> & { results: ImportResult[]; resultsOmitted: number };

/**
 * How many rows an answer lists: the file's first rows whatever became of them (so a file of up
 * to this many rows has every row's result, as before), and after that only rows that were not
 * created (the ones someone needs to look at), up to this many of those in all.
 */
export const MAX_LISTED_ROWS = 1000;
// A row's code and message come from the file: an answer never repeats more of them than this.
const MAX_CODE_CHARS = 100;
const MAX_MESSAGE_CHARS = 500;
// Rows are resolved in batches, so one may be reported up to a batch after rows that follow it:
// this much slack keeps "the first rows" exact once they are sorted back into file order.
const RESOLUTION_SLACK = 1024;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Collects an import's results as they come (in about file order), keeping counts of all and at
 * most some two thousand of them, so memory and answer stay bounded for a file of any rows.
 */
export function createImportReport() {
  const counts: Record<ImportStatus, number> = { created: 0, unchanged: 0, conflict: 0, invalid: 0, skipped: 0 };
  const listed: ImportResult[] = [];
  let problems = 0;
  let omitted = 0;
  return {
    add(result: ImportResult): void {
      counts[result.status]++;
      const created = result.status === 'created';
      if (created ? result.row > MAX_LISTED_ROWS : problems >= MAX_LISTED_ROWS + RESOLUTION_SLACK) {
        omitted++;
        return;
      }
      if (!created) problems++;
      listed.push({
        row: result.row,
        code: clip(result.code, MAX_CODE_CHARS),
        status: result.status,
        message: clip(result.message, MAX_MESSAGE_CHARS),
      });
    },
    /** The report, its listed rows in file order. */
    finish(): ImportReport {
      listed.sort((a, b) => a.row - b.row);
      const results: ImportResult[] = [];
      let kept = 0;
      for (const result of listed) {
        if (result.status !== 'created' && kept++ >= MAX_LISTED_ROWS) omitted++;
        else results.push(result);
      }
      return { ...counts, results, resultsOmitted: omitted };
    },
  };
}
