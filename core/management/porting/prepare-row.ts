import { LinkletError } from '../../http/errors.js';
import { codeKey, normalizeCustomCode } from '../../rules/code.js';
import { formatIsoDate } from '../../rules/dates.js';
import { type ExpireDuration, expiryFor } from '../../rules/expiry.js';
import { type OriginalUrlRules, parseOriginalUrl } from '../../rules/url.js';
import type { Link } from '../../store/link-store.js';
import { importedLabels } from './import-labels.js';
import type { ImportResult, ImportStatus } from './import-report.js';
import type { ImportRow } from './import-row.js';

/** What checking a row against the rules needs. */
export interface RowRules {
  /** The owner the new links belong to (none for the administrator), as a create with that key. */
  ownerId: number | undefined;
  now: number;
  urlRules: OriginalUrlRules;
  /** The expiry of rows that give none. */
  defaultDuration: ExpireDuration;
}

/** A row that passed every rule: the link it makes, and what its result will add. */
export interface PreparedLink {
  link: Link;
  disabled: boolean;
  /** Said in the row's result once created (an expiry that was shortened). */
  note: string | undefined;
}

/**
 * `text` as a string of its own. A parsed cell is a slice of the parser's chunk of the file, and
 * a slice keeps its whole chunk alive; a copy built from it (a concatenation, flattened by the
 * slice) keeps only itself, so the first-row map holds the URLs, not every chunk of the file.
 */
const detached = (text: string): string => ` ${text}`.slice(1);

/** The first row of the file for each code key: a later row with that code is a duplicate. */
export type FirstRows = Map<string, { row: number; url: string }>;

/**
 * Why a row cannot be created, or the link it makes, under the rules of `POST /api/v1/shorten`:
 * its own code as `custom_code`; its creation time (never later than now); its expiry, else
 * `defaultDuration` from now, and never later than a create may choose (one calendar month: a
 * longer one is shortened and the row's result says so), so no import holds a code for good.
 */
export function prepareRow(row: ImportRow, rules: RowRules, firstRows: FirstRows): ImportResult | PreparedLink {
  // A broken rule is a thrown LinkletError, and a file may break one on every row: its stack,
  // never shown nor logged, was most of the cost of a row (V8 and browsers that have the limit).
  const limits = Error as { stackTraceLimit?: number };
  const stackTraceLimit = limits.stackTraceLimit;
  limits.stackTraceLimit = 0;
  try {
    return checkRow(row, rules, firstRows);
  } finally {
    limits.stackTraceLimit = stackTraceLimit;
  }
}

function checkRow(row: ImportRow, rules: RowRules, firstRows: FirstRows): ImportResult | PreparedLink {
  const result = (status: ImportStatus, message: string, code = row.code): ImportResult => ({
    row: row.row,
    code,
    status,
    message,
  });
  if (row.problem !== undefined) return result('invalid', row.problem);
  if (row.skip !== undefined) return result('skipped', row.skip);
  const { now } = rules;
  if (row.expiresAt !== undefined && row.expiresAt <= now) {
    return result('skipped', `It expired on ${formatIsoDate(row.expiresAt)}; expired links are not imported.`);
  }
  if (row.code.trim() === '') return result('invalid', 'The row has no short code; each link keeps its own code.');
  let code: string;
  let originalUrl: string;
  try {
    code = normalizeCustomCode(row.code);
    originalUrl = parseOriginalUrl(row.url, rules.urlRules);
  } catch (error) {
    if (!(error instanceof LinkletError)) throw error;
    return result('invalid', error.message.replace(/^custom_code/, 'code'));
  }
  const key = codeKey(code);
  const first = firstRows.get(key);
  if (first !== undefined) {
    return first.url === originalUrl
      ? result('skipped', `The same link as row ${first.row} of this file.`, code)
      : result('conflict', `Row ${first.row} of this file already uses code '${code}' for another URL.`, code);
  }
  firstRows.set(key, { row: row.row, url: detached(originalUrl) });
  const createdAt = Math.min(row.createdAt ?? now, now);
  const longest = expiryFor('1month', now);
  let expiresAt = row.expiresAt ?? expiryFor(rules.defaultDuration, now);
  let note: string | undefined;
  if (expiresAt > longest) {
    note = `Its expiry ${formatIsoDate(expiresAt)} was more than a month away, the longest a link lasts: it expires on ${formatIsoDate(longest)}.`;
    expiresAt = longest;
  }
  const link: Link = { code, codeKey: key, originalUrl, createdAt, expiresAt, ...importedLabels(row.title, row.tags) };
  if (createdAt !== now) link.updatedAt = now;
  if (rules.ownerId !== undefined) link.ownerId = rules.ownerId;
  return { link, disabled: row.disabled === true, note };
}
