import { ApiError, UnreachableError } from '../client/api-errors.js';
import {
  type ErrorContext,
  type ErrorField,
  type ErrorKind,
  fieldOf,
  kindOfMessage,
  kindOfStatus,
} from './error-kinds.js';
import type { MessageKey, Translate } from './i18n.js';

export type { ErrorContext, ErrorField };

/** A failure in the page's words, and the field it is about (if any). */
export interface ErrorSentence {
  field: ErrorField;
  text: string;
}

/** The web app's sentence of each kind; a rule without one is said by its status. */
const WEB_WORDS: Partial<Record<ErrorKind, MessageKey>> = {
  'url-spaces': 'errUrlSpaces',
  'url-too-long': 'errUrlTooLong',
  'url-credentials': 'errUrlCredentials',
  'url-loop': 'errUrlLoop',
  'url-private': 'errUrlPrivate',
  'url-scheme': 'errUrlScheme',
  'url-other': 'errUrlOther',
  'code-reserved': 'errCodeReserved',
  'code-taken': 'errCodeTaken',
  'code-length': 'errCodeLength',
  'code-characters': 'errCodeChars',
  unreachable: 'errUnreachable',
  'key-refused': 'errKeyRefused',
  'sign-in-needed': 'errSignInNeeded',
  forbidden: 'errForbidden',
  'not-found': 'errNotFound',
  gone: 'errGone',
  'too-large': 'errTooLarge',
  'rate-limited': 'errRateLimited',
  server: 'errServer',
  'import-file': 'errImportFile',
  invalid: 'errInvalid',
};

/**
 * A failed call to the API as a sentence a person reads in the page's language, never the
 * server's own English message: that would glue English into a Korean page and show API words.
 */
export function errorSentence(t: Translate, failure: unknown, context: ErrorContext): ErrorSentence {
  if (failure instanceof UnreachableError) return { field: undefined, text: t('errUnreachable') };
  if (!(failure instanceof ApiError)) return { field: undefined, text: t('errServer') };
  const rule = failure.status === 400 ? kindOfMessage(failure.message) : undefined;
  const kind = rule && WEB_WORDS[rule] ? rule : kindOfStatus(failure.status, context);
  return { field: fieldOf(kind), text: t(WEB_WORDS[kind] ?? 'errInvalid') };
}
