import type { MessageKey, Translate } from './i18n.js';

/**
 * What went wrong, told apart by the API's status and the rule its message names. The API keeps
 * its own messages (for scripts and logs); screens say each kind in the page's language instead,
 * so a person never reads `original_url`, `U+0020` or a header name, and an English server
 * sentence is never glued into a Korean one.
 */
const BY_MESSAGE: [RegExp, MessageKey][] = [
  [/original_url .*(whitespace|control)/i, 'errorUrlSpaces'],
  [/original_url .*(at most|too long)/i, 'errorUrlTooLong'],
  [/original_url .*credentials/i, 'errorUrlCredentials'],
  [/original_url .*(this service|loop)/i, 'errorUrlLoop'],
  [/original_url .*(private|loopback|link-local)/i, 'errorUrlPrivate'],
  [/original_url/i, 'errorUrlInvalid'],
  [/custom_code .*reserved/i, 'errorCodeReserved'],
  [/custom_code .*already in use/i, 'errorCodeTaken'],
  [/custom_code .*characters long/i, 'errorCodeLength'],
  [/custom_code/i, 'errorCodeCharacters'],
  [/^Could not reach /, 'errorUnreachable'],
  [/API key/i, 'errorKeyRefused'],
];

const BY_STATUS: Record<number, MessageKey> = {
  401: 'errorKeyRefused',
  403: 'errorForbidden',
  404: 'errorNotFound',
  409: 'errorCodeTaken',
  410: 'errorNotFound',
  413: 'errorTooLarge',
  429: 'errorRateLimited',
};

/**
 * The message key for an error from the API or the extension's background, or undefined when
 * the message is none of the API's (then it is already one of the screens' own sentences, made
 * with `t`, and is shown as it is).
 */
export function errorKeyOf(status: number | undefined, message: string): MessageKey | undefined {
  const byMessage = BY_MESSAGE.find(([pattern]) => pattern.test(message))?.[1];
  if (byMessage) return byMessage;
  // A success status with an error is the extension refusing a server's answer: its own sentence.
  if (status === undefined || status < 400) return undefined;
  return BY_STATUS[status] ?? (status >= 500 ? 'errorServerTrouble' : 'errorUnknown');
}

/**
 * An error as a sentence for people in the page's language: the API's and the network's errors
 * by their kind (see `errorKeyOf`; the web app reads its ApiErrors with ui/error-sentence.ts), the screens' own sentences as they are.
 */
export function backgroundErrorSentence(t: Translate, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const status = (error as { status?: unknown } | null)?.status;
  const key = errorKeyOf(typeof status === 'number' ? status : undefined, message);
  if (!key) return message;
  // The extension adds when a taken code frees up, as a sentence of the page's own language.
  const freeAt = key === 'errorCodeTaken' ? /choose another code\.\s+(.+)$/s.exec(message)?.[1] : undefined;
  return freeAt ? `${t(key)} ${freeAt}` : t(key);
}
