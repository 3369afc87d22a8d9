import { acceptPrefersHtml } from '../http/accept.js';
import type { Answer } from '../http/answer.js';
import { type ErrorAudience, errorAnswer } from '../http/error-answer.js';
import { LinkletError } from '../http/errors.js';
import { pageLanguageOf } from '../http/page-language.js';
import { REDIRECT_SECURITY_HEADERS, SECURITY_HEADERS } from '../http/security-headers.js';
import { answerShortUrl, locationOf, resolutionOf } from '../redirect/resolve.js';
import type { Link, LinkStore } from '../store/link-store.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, type PasswordHasher, passwordLength } from './password-hasher.js';
import { PASSWORD_PAGE_POLICY, renderPasswordPage } from './password-page.js';
import type { PasswordPageProblem } from './password-page-words.js';
import type { PasswordTries } from './password-tries.js';

/** Whether a link asks for a password: its hash (a whole-record read) or the cache's flag says so. */
export const isPasswordProtected = (link: Link): boolean =>
  link.passwordProtected === true || link.passwordHash !== undefined;

export interface ProtectedLinkContext {
  store: LinkStore;
  passwords: PasswordHasher;
  tries: PasswordTries;
}

/** A request to a protected link's short URL, as far as the password matters. */
export interface PasswordAttempt {
  /** The code key the short URL names. */
  codeKey: string;
  /** The password sent (the form's field or `X-Link-Password`), if any. */
  password: string | undefined;
  /** Who is trying (the client's address), so one guesser cannot use up another's tries. */
  client: string;
  audience: ErrorAudience;
  /** The time of the request (epoch ms). */
  now: number;
  /**
   * Where the page's form posts: the short URL as the visitor sees it (BASE_URL and the code as
   * requested), which behind a proxy serving Linklet under a path is not the request's path.
   */
  action?: string;
  /**
   * The password came in a form that another site's page posted (`isPostFromOwnOrigin`): it is
   * neither counted nor checked, so no page can use up a visitor's tries or test passwords.
   */
  fromElsewhere?: boolean;
}

/** The answer, and whether the password opened the link (a click, if the method makes it one). */
export interface PasswordOutcome {
  answer: Answer;
  opened: boolean;
}

const NOT_CACHED = { 'Cache-Control': 'no-store' } as const;
const NEEDS_PASSWORD =
  'This short link is protected by a password; send it in the X-Link-Password header (or as the form field password).';
const WRONG_PASSWORD = 'The password is not right for this short link. Check it and try again.';
const FROM_ELSEWHERE =
  "A password form posted from another site's page is not checked: enter the password on the short URL's own page, or send it in the X-Link-Password header.";

/** The password page with `status`, in the visitor's language, under its own policy. */
function pageAnswer(status: number, attempt: PasswordAttempt, problem?: PasswordPageProblem, wait?: number): Answer {
  const { path, acceptLanguage } = attempt.audience;
  let address = path.length > 1 ? path.replace(/\/$/, '') : path;
  try {
    address = decodeURIComponent(address).normalize('NFC');
  } catch {}
  const body = renderPasswordPage({
    language: pageLanguageOf(acceptLanguage),
    address,
    action: attempt.action ?? path,
    ...(problem && { problem }),
    ...(wait !== undefined && { waitSeconds: wait }),
  });
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    ...NOT_CACHED,
    'Content-Type': 'text/html; charset=UTF-8',
    'Content-Security-Policy': PASSWORD_PAGE_POLICY,
  };
  if (wait !== undefined) headers['Retry-After'] = String(wait);
  return { status, headers, body };
}

/**
 * The answer at a protected link's short URL. Without a password: the page with its form for a
 * browser (200), a 401 envelope for anyone else. Posted from another site's page: 403 (the page
 * again, saying so, or the envelope), nothing counted or checked. With one: a try, counted against the client's
 * five a minute for this link before anything costly; then the hash is read from the store itself
 * (never a cache) and checked once. Right: 302, never kept by a browser (the next visit asks
 * again). Wrong: the page again (401) or the 401 envelope.
 */
export async function answerPasswordAttempt(
  attempt: PasswordAttempt,
  context: ProtectedLinkContext,
): Promise<PasswordOutcome> {
  const browser = acceptPrefersHtml(attempt.audience.accept);
  const refuse = (problem: PasswordPageProblem, message: string): PasswordOutcome => ({
    answer: browser
      ? pageAnswer(401, attempt, problem)
      : errorAnswer(new LinkletError('unauthorized', message), attempt.audience),
    opened: false,
  });
  const { password } = attempt;
  if (password === undefined || password === '') {
    if (browser && password === undefined) return { answer: pageAnswer(200, attempt), opened: false };
    return refuse('missing', NEEDS_PASSWORD);
  }
  if (attempt.fromElsewhere) {
    const answer = browser
      ? pageAnswer(403, attempt, 'elsewhere')
      : errorAnswer(new LinkletError('forbidden', FROM_ELSEWHERE), attempt.audience);
    return { answer, opened: false };
  }
  const wait = await context.tries.take(attempt.client, attempt.codeKey, attempt.now);
  if (wait !== undefined) {
    const tooMany = new LinkletError('rate_limited', `Too many password tries; try again in ${wait} s.`, {
      retryAfterSeconds: wait,
    });
    const answer = browser ? pageAnswer(429, attempt, 'too_many', wait) : errorAnswer(tooMany, attempt.audience);
    return { answer, opened: false };
  }
  // The hash is read fresh: the link may have changed (or lost its password) since it was looked up.
  const link = await context.store.findByCodeKey(attempt.codeKey);
  const resolution = resolutionOf(link, attempt.now);
  if (resolution.state !== 'active')
    return { answer: answerShortUrl(resolution, attempt.now, attempt.audience), opened: false };
  const { passwordHash } = resolution.link;
  if (passwordHash !== undefined) {
    const length = passwordLength(password);
    const fits = length >= MIN_PASSWORD_LENGTH && length <= MAX_PASSWORD_LENGTH;
    // A password no link can have is wrong without a hash: still one try, never more than one check.
    if (!fits || !(await context.passwords.verify(password, passwordHash))) return refuse('wrong', WRONG_PASSWORD);
  }
  const answer: Answer = {
    status: 302,
    headers: { Location: locationOf(resolution.link), ...NOT_CACHED, ...REDIRECT_SECURITY_HEADERS },
    body: null,
  };
  return { answer, opened: true };
}
