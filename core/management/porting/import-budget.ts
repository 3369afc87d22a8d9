import { LinkletError } from '../../http/errors.js';
import type { Caller } from '../owners/authenticate.js';
import type { RowBudget } from './import-links.js';

/**
 * How many links each caller may create by import per minute, counted wherever the adapter keeps
 * its rate limits (the server: in memory or Redis). Imports would otherwise get around the
 * request limits: one request may carry some 80,000 rows. Failures to count are the adapter's
 * business (the server lets the rows through, as its request limits do).
 */
export interface ImportBudget {
  rowsPerMinute: number;
  /** Rows `subject` may still import now, and the seconds until its budget is whole again. */
  left(subject: string): Promise<{ rows: number; retryAfterSeconds: number }>;
  /** Takes up to `rows` from `subject`'s budget; resolves with how many it got. */
  take(subject: string, rows: number): Promise<number>;
  /** Gives back rows taken but not created. */
  giveBack(subject: string, rows: number): Promise<void>;
}

/** Whose budget an import counts against: the owner (all their keys together), or the administrator. */
export const budgetSubjectOf = (caller: Caller): string => (caller.admin ? 'admin' : `owner:${caller.ownerId}`);

/** The words for "this many links a minute", for messages. */
const perMinute = (budget: ImportBudget) => `${budget.rowsPerMinute.toLocaleString('en-US')} links a minute`;

/**
 * The budget of one import: refuses it whole (429 with Retry-After) when nothing is left, before
 * any row is read; else hands `importLinks` its rows batch by batch, and remembers whether any
 * were left out, so the answer can say when to send the file again.
 */
export async function rowBudgetOf(budget: ImportBudget, caller: Caller): Promise<RowBudget & { leftOut(): boolean }> {
  const subject = budgetSubjectOf(caller);
  const { rows, retryAfterSeconds } = await budget.left(subject);
  if (rows <= 0) {
    throw new LinkletError(
      'rate_limited',
      `Imports may create ${perMinute(budget)} for each owner, and this minute's are used; send the file again in ${retryAfterSeconds} s.`,
      { retryAfterSeconds },
    );
  }
  let leftOut = false;
  return {
    async take(wanted) {
      const granted = await budget.take(subject, wanted);
      if (granted < wanted) leftOut = true;
      return granted;
    },
    giveBack: (given) => budget.giveBack(subject, given),
    async overBudget() {
      const { retryAfterSeconds: wait } = await budget.left(subject);
      return `Not imported: imports may create ${perMinute(budget)} for each owner, and this minute's were used. Send the file again in ${wait} s; the rows imported already will come back as unchanged.`;
    },
    leftOut: () => leftOut,
  };
}

/** The seconds until a caller whose rows were left out may send the file again. */
export async function retryAfterOf(budget: ImportBudget, caller: Caller): Promise<number> {
  return (await budget.left(budgetSubjectOf(caller))).retryAfterSeconds;
}
