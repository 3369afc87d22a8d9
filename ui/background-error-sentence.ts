import { type ErrorField, type ErrorKind, fieldOf, kindOfMessage, kindOfStatus } from './error-kinds.js';
import type { MessageKey, Translate } from './i18n.js';

/**
 * Errors reach the extension's pages from the background as messages (and a status when the API
 * gave one), so two kinds are also told apart by their words there.
 */
const BACKGROUND_RULES: Array<[RegExp, ErrorKind]> = [
  [/^Could not reach /, 'unreachable'],
  [/API key/i, 'key-refused'],
];

/** The extension's sentence of each kind: its pages point to the options, where a web page points to sign-in. */
const EXTENSION_WORDS: Record<ErrorKind, MessageKey> = {
  'url-spaces': 'errorUrlSpaces',
  'url-too-long': 'errorUrlTooLong',
  'url-credentials': 'errorUrlCredentials',
  'url-loop': 'errorUrlLoop',
  'url-private': 'errorUrlPrivate',
  'url-scheme': 'errorUrlInvalid',
  'url-other': 'errorUrlInvalid',
  'code-reserved': 'errorCodeReserved',
  'code-taken': 'errorCodeTaken',
  'code-length': 'errorCodeLength',
  'code-characters': 'errorCodeCharacters',
  'code-other': 'errorCodeCharacters',
  unreachable: 'errorUnreachable',
  'key-refused': 'errorKeyRefused',
  'sign-in-needed': 'errorKeyRefused',
  forbidden: 'errorForbidden',
  'not-found': 'errorNotFound',
  gone: 'errorNotFound',
  'too-large': 'errorTooLarge',
  'rate-limited': 'errorRateLimited',
  server: 'errorServerTrouble',
  'import-file': 'errorUnknown',
  invalid: 'errorUnknown',
};

/**
 * The message key for an error from the API or the extension's background (see ui/error-kinds.ts),
 * or undefined when the message is none of the API's (then it is already one of the screens' own
 * sentences, made with `t`, and is shown as it is).
 */
export function errorKeyOf(status: number | undefined, message: string): MessageKey | undefined {
  const kind = kindOf(status, message);
  return kind === undefined ? undefined : EXTENSION_WORDS[kind];
}

/** An error's kind by its words, else by its status; none for the screens' own sentences. */
function kindOf(status: number | undefined, message: string): ErrorKind | undefined {
  const byMessage = kindOfMessage(message) ?? BACKGROUND_RULES.find(([pattern]) => pattern.test(message))?.[1];
  if (byMessage) return byMessage;
  // A success status with an error is the extension refusing a server's answer: its own sentence.
  if (status === undefined || status < 400) return undefined;
  return kindOfStatus(status, 'other');
}

/** The message and API status an error from the background carries. */
function partsOf(error: unknown): { status: number | undefined; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const status = (error as { status?: unknown } | null)?.status;
  return { status: typeof status === 'number' ? status : undefined, message };
}

/**
 * An error as a sentence for people in the page's language: the API's and the network's errors
 * by their kind (see `errorKeyOf`), the screens' own sentences as they are.
 */
export function backgroundErrorSentence(t: Translate, error: unknown): string {
  const { status, message } = partsOf(error);
  const key = errorKeyOf(status, message);
  if (!key) return message;
  // The extension adds when a taken code frees up, as a sentence of the page's own language.
  const freeAt = key === 'errorCodeTaken' ? /choose another code\.\s+(.+)$/s.exec(message)?.[1] : undefined;
  return freeAt ? `${t(key)} ${freeAt}` : t(key);
}

/**
 * The field an error from the background is about (`url` or `code`, say), so a form can mark
 * that field invalid and send the person back to it, as the web app does; undefined for errors
 * about no one field (the server down, a refused key).
 */
export function backgroundErrorField(error: unknown): ErrorField {
  const { status, message } = partsOf(error);
  const kind = kindOf(status, message);
  return kind === undefined ? undefined : fieldOf(kind);
}
