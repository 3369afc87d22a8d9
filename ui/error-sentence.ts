import { ApiError, UnreachableError } from '../client/api-errors.js';
import type { MessageKey, Translate } from './i18n.js';

/** Which field a failure belongs next to, so the screen can show it there. */
export type ErrorField = 'url' | 'code' | 'key' | undefined;

/** A failure in the page's words, and the field it is about (if any). */
export interface ErrorSentence {
  field: ErrorField;
  text: string;
}

/** What the person was doing: the same status means different things in different places. */
export type ErrorContext = 'shorten' | 'sign-in' | 'link' | 'import' | 'other';

/**
 * The API's 400 messages name a field and a rule (core/url.ts, core/code.ts). They are English
 * and speak API (`original_url`, `U+0020`, "percent-encode"), so the screens never show them:
 * the rule is recognised here and said again in the page's language. Order matters: the most
 * specific rule first.
 */
const INVALID_RULES: Array<[RegExp, ErrorField, MessageKey]> = [
  [/original_url.*whitespace/i, 'url', 'errUrlSpaces'],
  [/original_url.*at most \d+ characters/i, 'url', 'errUrlTooLong'],
  [/original_url.*credentials/i, 'url', 'errUrlCredentials'],
  [/original_url.*(this service|loop)/i, 'url', 'errUrlLoop'],
  [/original_url.*(private|loopback|link-local)/i, 'url', 'errUrlPrivate'],
  [/original_url.*(absolute|must use http|is required)/i, 'url', 'errUrlScheme'],
  [/original_url/i, 'url', 'errUrlOther'],
  [/custom_code.*may only contain/i, 'code', 'errCodeChars'],
  [/custom_code.*characters long/i, 'code', 'errCodeLength'],
  [/custom_code.*reserved/i, 'code', 'errCodeReserved'],
];

/** The sentence of an HTTP status, by error kind (core/errors.ts maps kinds to statuses). */
function byStatus(status: number, context: ErrorContext): { field: ErrorField; key: MessageKey } {
  if (status === 401) {
    return context === 'shorten'
      ? { field: undefined, key: 'errSignInNeeded' }
      : { field: 'key', key: 'errKeyRefused' };
  }
  if (status === 403) return { field: undefined, key: 'errForbidden' };
  if (status === 404) return { field: undefined, key: 'errNotFound' };
  if (status === 409) return { field: 'code', key: 'errCodeTaken' };
  if (status === 410) return { field: undefined, key: 'errGone' };
  if (status === 413) return { field: undefined, key: 'errTooLarge' };
  if (status === 429) return { field: undefined, key: 'errRateLimited' };
  if (status >= 500) return { field: undefined, key: 'errServer' };
  return { field: undefined, key: context === 'import' ? 'errImportFile' : 'errInvalid' };
}

/**
 * A failed call to the API as a sentence a person reads in the page's language, never the
 * server's own English message: that would glue English into a Korean page and show API words.
 */
export function errorSentence(t: Translate, failure: unknown, context: ErrorContext): ErrorSentence {
  if (failure instanceof UnreachableError) return { field: undefined, text: t('errUnreachable') };
  if (!(failure instanceof ApiError)) return { field: undefined, text: t('errServer') };
  if (failure.status === 400) {
    const rule = INVALID_RULES.find(([pattern]) => pattern.test(failure.message));
    if (rule) return { field: rule[1], text: t(rule[2]) };
  }
  const { field, key } = byStatus(failure.status, context);
  return { field, text: t(key) };
}

/** An import row's server message in the page's words (rows fail with the create's 400 messages). */
export function rowProblemSentence(t: Translate, message: string | undefined): string {
  const rule = INVALID_RULES.find(([pattern]) => pattern.test(message ?? ''));
  return t(rule ? rule[2] : 'errInvalid');
}
