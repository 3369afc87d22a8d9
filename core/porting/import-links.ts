import { codeKey, normalizeCustomCode } from '../code.js';
import { formatIsoDate } from '../dates.js';
import { LinkletError } from '../errors.js';
import { type ExpireDuration, expiryFor } from '../expiry.js';
import { inScope, type LinkManagementStore, type OwnerScope } from '../link-management-store.js';
import type { Link, LinkStore } from '../link-store.js';
import { type OriginalUrlRules, parseOriginalUrl } from '../url.js';
import type { ImportRow } from './import-row.js';

export const IMPORT_STATUSES = ['created', 'unchanged', 'conflict', 'invalid', 'skipped'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** What happened to one row, with the reason in words. */
export interface ImportResult {
  row: number;
  code: string;
  status: ImportStatus;
  message: string;
}

export type ImportReport = Record<ImportStatus, number> & { results: ImportResult[] };

export interface ImportContext {
  store: LinkStore & Pick<LinkManagementStore, 'updateLink'>;
  /** Whose links count as "already yours" (`unchanged`). */
  scope: OwnerScope;
  /** The owner the new links belong to (none for the administrator), as a create with that key. */
  ownerId: number | undefined;
  now: number;
  urlRules: OriginalUrlRules;
  /** The expiry of rows that give none. */
  defaultDuration: ExpireDuration;
}

/**
 * Creates go to the store this many at a time, all at once: the stores commit what arrives
 * together in one transaction (SQLite's group commit, PostgreSQL's multi-row claims of up to 256),
 * so 100,000 rows cost a few hundred commits rather than 100,000. Larger batches were no faster
 * here and kept more garbage alive across each commit (50,000 rows on SQLite, in process: peak RSS
 * growth 48 MB with 250, 83 MB with 1,000, 100 MB with 4,000).
 */
export const IMPORT_BATCH_SIZE = 256;

const CREATED = 'Created.';
const CREATED_DISABLED = 'Created, disabled as it was in the file.';
const UNCHANGED = 'Already yours with the same URL; left as it is.';

/** A row that passed every rule and waits for its create. */
interface Pending {
  index: number;
  row: number;
  link: Link;
  disabled: boolean;
}

/**
 * Imports rows as creates under the same rules as `POST /api/v1/shorten`, each with its own code
 * as `custom_code`: the expiry given (else `defaultDuration` from now), the creation time given
 * (never later than now), updated now (so synced devices see the links as new). Rows already
 * expired are skipped; a code held by an active link is `unchanged` when that link is the
 * caller's with the same URL, else a `conflict`. A code that appears twice in the file is taken
 * from its first row only. Valid rows are kept whatever happens to the others.
 */
export async function importLinks(rows: Iterable<ImportRow>, context: ImportContext): Promise<ImportReport> {
  const results: ImportResult[] = [];
  const firstRowOf = new Map<string, { row: number; url: string }>();
  let batch: Pending[] = [];
  let index = -1;
  for (const row of rows) {
    index++; // the row's place in `results`: filled now, or once its batch is created
    const outcome = prepare(row, context, firstRowOf);
    if ('status' in outcome) results[index] = outcome;
    else {
      batch.push({ index, row: row.row, ...outcome });
      if (batch.length >= IMPORT_BATCH_SIZE) {
        await createAll(batch, context, results);
        batch = [];
      }
    }
  }
  await createAll(batch, context, results);
  const report: ImportReport = { created: 0, unchanged: 0, conflict: 0, invalid: 0, skipped: 0, results };
  for (const result of results) report[result.status]++;
  return report;
}

/** Why a row cannot be created, or the link it makes. */
function prepare(
  row: ImportRow,
  context: ImportContext,
  firstRowOf: Map<string, { row: number; url: string }>,
): ImportResult | Omit<Pending, 'index' | 'row'> {
  const result = (status: ImportStatus, message: string, code = row.code): ImportResult => ({
    row: row.row,
    code,
    status,
    message,
  });
  if (row.problem !== undefined) return result('invalid', row.problem);
  if (row.skip !== undefined) return result('skipped', row.skip);
  const { now } = context;
  if (row.expiresAt !== undefined && row.expiresAt <= now) {
    return result('skipped', `It expired on ${formatIsoDate(row.expiresAt)}; expired links are not imported.`);
  }
  if (row.code.trim() === '') return result('invalid', 'The row has no short code; each link keeps its own code.');
  let code: string;
  let originalUrl: string;
  try {
    code = normalizeCustomCode(row.code);
    originalUrl = parseOriginalUrl(row.url, context.urlRules);
  } catch (error) {
    if (!(error instanceof LinkletError)) throw error;
    return result('invalid', error.message.replace(/^custom_code/, 'code'));
  }
  const key = codeKey(code);
  const first = firstRowOf.get(key);
  if (first !== undefined) {
    return first.url === originalUrl
      ? result('skipped', `The same link as row ${first.row} of this file.`, code)
      : result('conflict', `Row ${first.row} of this file already uses code '${code}' for another URL.`, code);
  }
  firstRowOf.set(key, { row: row.row, url: originalUrl });
  const createdAt = Math.min(row.createdAt ?? now, now);
  const link: Link = {
    code,
    codeKey: key,
    originalUrl,
    createdAt,
    expiresAt: row.expiresAt ?? expiryFor(context.defaultDuration, now),
  };
  if (createdAt !== now) link.updatedAt = now;
  if (context.ownerId !== undefined) link.ownerId = context.ownerId;
  return { link, disabled: row.disabled === true };
}

/** One batch of creates at once, then what each came to. */
async function createAll(batch: Pending[], context: ImportContext, results: ImportResult[]): Promise<void> {
  const { store, scope, now } = context;
  const outcomes = await Promise.all(batch.map(({ link }) => store.create(link, now)));
  await Promise.all(
    batch.map(async ({ index, row, link, disabled }, at) => {
      const result = (status: ImportStatus, message: string): ImportResult => ({
        row,
        code: link.code,
        status,
        message,
      });
      if (outcomes[at]?.created) {
        if (disabled) await store.updateLink(link.codeKey, scope, { disabled: true }, now);
        results[index] = result('created', disabled ? CREATED_DISABLED : CREATED);
        return;
      }
      const holder = await store.findByCodeKey(link.codeKey);
      if (holder && inScope(holder, scope) && holder.originalUrl === link.originalUrl) {
        results[index] = result('unchanged', UNCHANGED);
      } else if (holder && inScope(holder, scope)) {
        results[index] = result(
          'conflict',
          `Code '${link.code}' is already yours for another URL (${holder.originalUrl}).`,
        );
      } else {
        results[index] = result('conflict', `Code '${link.code}' is in use by another active link.`);
      }
    }),
  );
}
