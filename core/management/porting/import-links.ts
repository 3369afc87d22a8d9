import { isActive } from '../../rules/expiry.js';
import { inScope, type LinkManagementStore, type OwnerScope } from '../../store/link-management-store.js';
import type { Link, LinkStore } from '../../store/link-store.js';
import { createImportReport, type ImportReport, type ImportResult, type ImportStatus } from './import-report.js';
import type { ImportRow } from './import-row.js';
import { type FirstRows, type PreparedLink, prepareRow, type RowRules } from './prepare-row.js';
import { createTurns, type Turns } from './take-turns.js';

export {
  IMPORT_STATUSES,
  type ImportReport,
  type ImportResult,
  type ImportStatus,
  MAX_LISTED_ROWS,
} from './import-report.js';

/**
 * How many links an import may still create for its caller: asked batch by batch, so rows past
 * the budget are reported as not imported rather than created (see docs/import-limits.md).
 */
export interface RowBudget {
  /** Takes up to `rows` creates from the caller's budget; resolves with how many it may make now. */
  take(rows: number): Promise<number>;
  /** Gives back creates taken but not made (the row was unchanged or a conflict). */
  giveBack(rows: number): Promise<void>;
  /** The message of a row left out for want of budget: the limit, and when to import again. */
  overBudget(): Promise<string>;
}

export interface ImportContext extends RowRules {
  store: LinkStore & Pick<LinkManagementStore, 'updateLink'>;
  /** Whose links count as "already yours" (`unchanged`). */
  scope: OwnerScope;
  /** When set, each create is taken from it first. */
  budget?: RowBudget;
  /** Shared with the file's reader, so reading and importing both take turns with other requests. */
  turns?: Turns;
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

/**
 * What a created row's result says, then any note of `prepareRow`. Only a password's hash
 * exists and no export holds it, so a protected link comes in open: its owner must read that
 * here rather than learn it from a stranger who opened the link.
 */
function createdMessage({ disabled, hadPassword, note }: Omit<PreparedLink, 'link'>): string {
  const message = hadPassword
    ? `Created${disabled ? ', disabled as it was in the file,' : ''} without its password (an export never holds one); set a new password to protect it again.`
    : disabled
      ? CREATED_DISABLED
      : CREATED;
  return note ? `${message} ${note}` : message;
}
const UNCHANGED = 'Already yours with the same URL; left as it is.';
/** The code is someone else's: what the create's 409 says, for a row of a file. */
const takenMessage = (code: string) =>
  `Code '${code}' is in use by another active link; choose another code for this row and import it again.`;

/** A row that passed every rule and waits for its create. */
type Pending = PreparedLink & { row: number };

/**
 * Imports rows as creates under the same rules as `POST /api/v1/shorten` (`prepareRow`). A code
 * held by an active link is `unchanged` when that link is the caller's with the same URL, else a
 * `conflict`. Valid rows are kept whatever happens to the others. The loop takes turns with other
 * requests however many rows fail at once, and the report keeps counts of every row but lists
 * only some (`createImportReport`), so neither time nor memory grows with a hostile file.
 */
export async function importLinks(rows: Iterable<ImportRow>, context: ImportContext): Promise<ImportReport> {
  const report = createImportReport();
  const turns = context.turns ?? createTurns();
  const firstRows: FirstRows = new Map();
  let batch: Pending[] = [];
  for (const row of rows) {
    if (turns.due()) await turns.pause();
    const outcome = prepareRow(row, context, firstRows);
    if ('status' in outcome) report.add(outcome);
    else {
      batch.push({ row: row.row, ...outcome });
      if (batch.length >= IMPORT_BATCH_SIZE) {
        await createAll(batch, context, report.add);
        batch = [];
      }
    }
  }
  await createAll(batch, context, report.add);
  return report.finish();
}

/**
 * One batch of creates at once, then what each came to. With a budget, rows are created in file
 * order as far as it goes: rows taken but not created (already there) are given back and the
 * next rows take their place; the rest are left out, and told apart from rows that would not
 * have been created anyway.
 */
async function createAll(batch: Pending[], context: ImportContext, add: (result: ImportResult) => void) {
  const { budget } = context;
  let pending = batch;
  while (pending.length > 0) {
    const granted = budget === undefined ? pending.length : await budget.take(pending.length);
    if (granted === 0) break;
    const notCreated = await createEach(pending.slice(0, granted), context, add);
    if (budget !== undefined && notCreated > 0) await budget.giveBack(notCreated);
    pending = pending.slice(granted);
  }
  if (pending.length === 0) return;
  const overBudget = await (budget as RowBudget).overBudget();
  await Promise.all(pending.map(async ({ row, link }) => add(await notCreatedResult(row, link, context, overBudget))));
}

/** Creates every link of `creating` at once and reports each; resolves with how many were not created. */
async function createEach(creating: Pending[], context: ImportContext, add: (result: ImportResult) => void) {
  const { store, scope, now } = context;
  const outcomes = await Promise.all(creating.map(({ link }) => store.create(link, now)));
  let notCreated = 0;
  await Promise.all(
    creating.map(async ({ row, link, ...outcome }, at) => {
      if (outcomes[at]?.created) {
        if (outcome.disabled) await store.updateLink(link.codeKey, scope, { disabled: true }, now);
        add({ row, code: link.code, status: 'created', message: createdMessage(outcome) });
        return;
      }
      notCreated++;
      add(await notCreatedResult(row, link, context, undefined));
    }),
  );
  return notCreated;
}

/** The result of a row whose link was not created: held already (by the caller or not), or over budget. */
async function notCreatedResult(
  row: number,
  link: Link,
  { store, scope, now }: ImportContext,
  overBudget: string | undefined,
): Promise<ImportResult> {
  const result = (status: ImportStatus, message: string): ImportResult => ({ row, code: link.code, status, message });
  const found = await store.findByCodeKey(link.codeKey);
  // Over budget no create was tried: a holder already expired would have been replaced.
  const holder = overBudget !== undefined && found && !isActive(found.expiresAt, now) ? undefined : found;
  if (holder && inScope(holder, scope) && holder.originalUrl === link.originalUrl)
    return result('unchanged', UNCHANGED);
  if (holder && inScope(holder, scope)) {
    return result('conflict', `Code '${link.code}' is already yours for another URL (${holder.originalUrl}).`);
  }
  if (holder) return result('conflict', takenMessage(link.code));
  // A create that lost a race to a link since expired or deleted is still a conflict, as before.
  return overBudget === undefined ? result('conflict', takenMessage(link.code)) : result('skipped', overBudget);
}
