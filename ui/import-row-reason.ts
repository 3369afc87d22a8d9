import { errorKeyOf } from './background-error-sentence.js';
import type { MessageKey, Translate } from './i18n.js';

/** One row of an import's answer that was not created: its outcome and the API's English reason. */
export interface ImportRowOutcome {
  status: string;
  message?: string;
}

/**
 * The API's reasons (core/management/porting), each told apart by its words: a row's outcome
 * alone says too little ("conflict" is also a code that is already the importer's own link for
 * another address), and the message itself is English that speaks API.
 */
const BY_MESSAGE: Array<[status: string, pattern: RegExp, key: MessageKey]> = [
  ['conflict', /already yours for another URL/i, 'importRowYoursOtherUrl'],
  ['conflict', /of this file already uses code/i, 'importRowDuplicateCode'],
  ['skipped', /same link as row/i, 'importRowSameAsEarlier'],
  ['skipped', /expired/i, 'importRowExpired'],
  ['skipped', /password/i, 'importRowPassword'],
  ['skipped', /imports may create/i, 'importRowOverLimit'],
  ['invalid', /no short code/i, 'importRowNoCode'],
];

/** What each outcome says when its message is none of the above. */
const BY_STATUS: Record<string, MessageKey> = {
  unchanged: 'importRowUnchanged',
  conflict: 'importRowTaken',
  skipped: 'importRowLeftOut',
};

/**
 * Why an import row was not created, in the page's language: "already there", "the code is
 * someone else's", a URL or code rule in the screens' own sentences. A row the rules refuse is
 * never "the server did not accept this": that names no reason, and a local import has no server.
 */
export function importRowReason(t: Translate, row: ImportRowOutcome): string {
  const message = row.message ?? '';
  const known = BY_MESSAGE.find(([status, pattern]) => status === row.status && pattern.test(message));
  if (known) return t(known[2]);
  if (row.status !== 'invalid') return t(BY_STATUS[row.status] ?? 'importRowUnreadable');
  // The import says `code` where a create says `custom_code` (prepare-row.ts): the create's rules.
  const key = errorKeyOf(undefined, message.replace(/^code\b/, 'custom_code'));
  return t(key && key !== 'errorUnknown' ? key : 'importRowUnreadable');
}
