import { LinkletError } from '../../http/errors.js';
import { codeKey, normalizeCustomCode } from '../../rules/code.js';
import { formatIsoDate } from '../../rules/dates.js';
import { type ExpireDuration, expiryFor } from '../../rules/expiry.js';
import { type OriginalUrlRules, parseOriginalUrl } from '../../rules/url.js';
import type { Link } from '../../store/link-store.js';
import { type LinkRulePatch, parseCreateRuleFields } from '../links/link-rules-request.js';
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
  /** The file says the link had a password, which no export carries: it is created open. */
  hadPassword: boolean;
  /** Said in the row's result once created (an expiry that was shortened). */
  note: string | undefined;
}

/**
 * The first row of the file for each code key, with a hash of that row's URL, as one number
 * (`firstRowOf`): a later row with that code is a duplicate, the same link when its URL hashes
 * alike. A number per code, not the row and a copy of its URL: the map lives as long as the file
 * is imported, and as objects it was the largest thing that did (about 10 MB of every 50,000
 * rows, promoted to V8's old generation while rows waited for their commit). Two URLs with one
 * hash (about one pair in a billion) only change a duplicate's message: neither row's link is
 * created from it either way.
 */
export type FirstRows = Map<string, number>;

/** Rows are numbered below this: a 10 MiB file holds fewer rows, each at least a byte and its line's end. */
const ROWS = 2 ** 23;

/**
 * `text` as a string of its own. A parsed cell is a slice of the parser's chunk of the file, and
 * a slice (of 13 characters or more) keeps its whole chunk alive; a copy built from it (a
 * concatenation, flattened by the slice) keeps only itself, so the first-row map holds its codes,
 * not every chunk of the file.
 */
const detached = (text: string): string => ` ${text}`.slice(1);

/** FNV-1a over the URL's UTF-16 code units, 30 bits: with a row number below `ROWS`, an exact double. */
function urlHash(url: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < url.length; at++) hash = Math.imul(hash ^ url.charCodeAt(at), 0x01000193);
  return (hash >>> 2) * ROWS;
}

/** The first row with `key`, and whether its URL was `url`; undefined for a code not seen yet. */
function firstRowOf(firstRows: FirstRows, key: string, url: string): { row: number; sameUrl: boolean } | undefined {
  const first = firstRows.get(key);
  if (first === undefined) return undefined;
  const row = first % ROWS;
  return { row, sameUrl: first - row === urlHash(url) };
}

/**
 * Why a row cannot be created, or the link it makes, under the rules of `POST /api/v1/shorten`:
 * its own code as `custom_code`; its creation time (never later than now); its expiry, else
 * `defaultDuration` from now, and never later than a create may choose (one calendar month: a
 * longer one is shortened and the row's result says so), so no import holds a code for good.
 */
export function prepareRow(row: ImportRow, rules: RowRules, firstRows: FirstRows): ImportResult | PreparedLink {
  // A file may break a rule on every row. The LinkletError that says so captures no stack
  // (errors.ts), but a URL the parser refuses throws its own TypeError first (caught in
  // `parseOriginalUrl`), whose stack, never shown nor logged, was most of the cost of such a row.
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
  let ruleFields: LinkRulePatch = {};
  try {
    code = normalizeCustomCode(row.code);
    originalUrl = parseOriginalUrl(row.url, rules.urlRules);
    // A rule that would not pass a create makes the row invalid: imported without it, the link
    // would send everyone to one target, or past a limit its owner set.
    if (row.ruleFields !== undefined) ruleFields = parseCreateRuleFields(row.ruleFields, rules.urlRules);
  } catch (error) {
    if (!(error instanceof LinkletError)) throw error;
    return result('invalid', error.message.replace(/^custom_code/, 'code'));
  }
  const key = codeKey(code);
  const first = firstRowOf(firstRows, key, originalUrl);
  if (first !== undefined) {
    return first.sameUrl
      ? result('skipped', `The same link as row ${first.row} of this file.`, code)
      : result('conflict', `Row ${first.row} of this file already uses code '${code}' for another URL.`, code);
  }
  firstRows.set(detached(key), urlHash(originalUrl) + row.row);
  const createdAt = Math.min(row.createdAt ?? now, now);
  const longest = expiryFor('1month', now);
  let expiresAt = row.expiresAt ?? expiryFor(rules.defaultDuration, now);
  let note: string | undefined;
  if (expiresAt > longest) {
    note = `Its expiry ${formatIsoDate(expiresAt)} was more than a month away, the longest a link lasts: it expires on ${formatIsoDate(longest)}.`;
    expiresAt = longest;
  }
  const link: Link = { code, codeKey: key, originalUrl, createdAt, expiresAt, ...importedLabels(row.title, row.tags) };
  if (ruleFields.redirectRules !== undefined) link.redirectRules = ruleFields.redirectRules;
  if (typeof ruleFields.maxVisits === 'number') link.maxVisits = ruleFields.maxVisits;
  if (typeof ruleFields.validSince === 'number') link.validSince = ruleFields.validSince;
  if (ruleFields.forwardQuery === true) link.forwardQuery = true;
  if (createdAt !== now) link.updatedAt = now;
  if (rules.ownerId !== undefined) link.ownerId = rules.ownerId;
  return { link, disabled: row.disabled === true, hadPassword: row.hadPassword === true, note };
}
