// What went wrong in a call to the API, told apart once for every screen: by the rule the API's
// message names, then by its status. The API keeps its own English messages (for scripts and
// logs); the screens turn a kind into a sentence of their own language (ui/error-sentence.ts for
// the web app, ui/background-error-sentence.ts for the extension's pages).

/** Which field a failure belongs next to, so a screen can show it there. */
export type ErrorField = 'url' | 'code' | 'key' | undefined;

/** What the person was doing: the same status means different things in different places. */
export type ErrorContext = 'shorten' | 'sign-in' | 'link' | 'import' | 'other';

export type ErrorKind =
  | 'url-spaces'
  | 'url-too-long'
  | 'url-credentials'
  | 'url-loop'
  | 'url-private'
  | 'url-scheme'
  | 'url-other'
  | 'code-reserved'
  | 'code-taken'
  | 'code-length'
  | 'code-characters'
  | 'code-other'
  | 'unreachable'
  | 'key-refused'
  | 'sign-in-needed'
  | 'forbidden'
  | 'not-found'
  | 'gone'
  | 'too-large'
  | 'rate-limited'
  | 'server'
  | 'import-file'
  | 'invalid';

/**
 * The API's 400 messages name a field and a rule (core/rules/url.ts, core/rules/code.ts), in words no screen
 * shows (`original_url`, `U+0020`, "percent-encode"). Order matters: the most specific rule first.
 */
const RULES: Array<[RegExp, ErrorKind]> = [
  [/original_url.*(whitespace|control)/i, 'url-spaces'],
  [/original_url.*(at most|too long)/i, 'url-too-long'],
  [/original_url.*credentials/i, 'url-credentials'],
  [/original_url.*(this service|loop)/i, 'url-loop'],
  [/original_url.*(private|loopback|link-local)/i, 'url-private'],
  [/original_url.*(absolute|must use http|is required)/i, 'url-scheme'],
  [/original_url/i, 'url-other'],
  [/custom_code.*reserved/i, 'code-reserved'],
  [/custom_code.*already in use/i, 'code-taken'],
  [/custom_code.*characters long/i, 'code-length'],
  [/custom_code.*may only contain/i, 'code-characters'],
  [/custom_code/i, 'code-other'],
];

/** The rule an API message names, or undefined when it names none of the create's rules. */
export function kindOfMessage(message: string): ErrorKind | undefined {
  return RULES.find(([pattern]) => pattern.test(message))?.[1];
}

/** The kind of an HTTP status (core/http/errors.ts maps kinds to statuses), for what the person was doing. */
export function kindOfStatus(status: number, context: ErrorContext): ErrorKind {
  if (status === 401) return context === 'shorten' ? 'sign-in-needed' : 'key-refused';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 409) return 'code-taken';
  if (status === 410) return 'gone';
  if (status === 413) return 'too-large';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server';
  return context === 'import' ? 'import-file' : 'invalid';
}

/** The field a kind is about, so a form can put the sentence beside it. */
export function fieldOf(kind: ErrorKind): ErrorField {
  if (kind.startsWith('url-')) return 'url';
  if (kind.startsWith('code-')) return 'code';
  return kind === 'key-refused' ? 'key' : undefined;
}
