import { shlinkProblemAnswer } from '../compat/shlink/shlink-problem.js';
import { yourlsErrorAnswer } from '../compat/yourls/yourls-error-answer.js';
import { toErrorEnvelope } from '../shorten/envelopes.js';
import { acceptPrefersHtml } from './accept.js';
import { type Answer, API_CORS_HEADERS, jsonAnswer } from './answer.js';
import { type ErrorPageContent, renderErrorPage } from './error-page.js';
import { type ErrorKind, LinkletError } from './errors.js';
import { formatPageDate } from './page-dates.js';
import { type PageLanguage, pageLanguageOf } from './page-language.js';
import { compatDialectOf, isApiPath } from './paths.js';
import { ERROR_PAGE_SECURITY_HEADERS } from './security-headers.js';

/** Where an error is answered: decides between the HTML page and JSON, and whether CORS applies. */
export interface ErrorAudience {
  /** The request's path (no query). */
  path: string;
  /** The request's `Accept` header. */
  accept?: string | null;
  /** The request's `Accept-Language` header: the page speaks English or Korean by it. */
  acceptLanguage?: string | null;
  /** The server's display time zone (IANA), for the dates a page shows; UTC when not given. */
  timeZone?: string;
  /**
   * Whether the request sent `Origin`: an API path's error carries CORS only then. True too where
   * the headers could not be read (Node refused them), so a browser's script can still read why.
   */
  crossOrigin?: boolean;
}

const INTERNAL_MESSAGE = 'Internal server error; the server log has the details.';
// The kinds a browser following a short link may meet; it gets a page for them, not JSON.
const PAGE_KINDS: ReadonlySet<ErrorKind> = new Set(['not_found', 'gone']);

/** The address as the visitor reads it: percent escapes decoded (Hangul stays Hangul), no trailing slash. */
function addressOf(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/$/, '') : path;
  try {
    return decodeURIComponent(trimmed).normalize('NFC');
  } catch {
    return trimmed;
  }
}

/** What the page for `error` says to someone reading `language`. */
function pageContentOf(error: LinkletError, audience: ErrorAudience, language: PageLanguage): ErrorPageContent {
  const address = addressOf(audience.path);
  const gone = error.kind === 'gone' ? error.gone : undefined;
  if (gone?.reason === 'expired' || gone?.reason === 'not_yet_valid') {
    const expiredOn = formatPageDate(gone.at, language, audience.timeZone ?? 'UTC');
    return { language, reason: gone.reason, address, expiredOn };
  }
  return { language, reason: gone === undefined ? 'not_found' : gone.reason, address };
}

/** What a log line should say of a failure, at which level, or nothing (a client's own mistake). */
export type LogLevel = 'error' | 'warn';

/**
 * The one rule of what is logged: anything unexpected (not a `LinkletError`, or an `internal`
 * one) is an error; a passing outage (`unavailable`, 503) is a warning; a refused request is
 * the client's business and is not logged.
 */
export function logLevelOf(error: unknown): LogLevel | undefined {
  if (!(error instanceof LinkletError) || error.kind === 'internal') return 'error';
  return error.kind === 'unavailable' ? 'warn' : undefined;
}

/**
 * Turns any error, wherever it was raised (a rule, a route, the store, the rate limiter, Node's
 * parser), into its answer: the status of its kind, the JSON envelope (or, for a browser on a
 * short URL, the small HTML page), `Allow` and `Retry-After` when the error carries them, CORS on
 * API paths for a request with `Origin`, and the security headers. Anything but a `LinkletError`
 * is a bare 500 whose message reveals nothing.
 */
export function errorAnswer(error: unknown, audience?: ErrorAudience): Answer {
  const known = error instanceof LinkletError ? error : new LinkletError('internal', INTERNAL_MESSAGE);
  const api = audience !== undefined && isApiPath(audience.path);
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (known.allow) headers.Allow = known.allow.join(', ');
  if (known.retryAfterSeconds !== undefined) headers['Retry-After'] = String(known.retryAfterSeconds);
  if (api && audience.crossOrigin === true) Object.assign(headers, API_CORS_HEADERS);
  // The peer APIs' clients read every error of their paths in that API's shape, whoever raised it:
  // YOURLS's failure, Shlink's problem document.
  const dialect = audience && compatDialectOf(audience.path);
  if (dialect === 'yourls') return yourlsErrorAnswer(known, headers);
  if (dialect === 'shlink') return shlinkProblemAnswer(known, headers);
  if (audience !== undefined && !api && PAGE_KINDS.has(known.kind) && acceptPrefersHtml(audience.accept)) {
    const language = pageLanguageOf(audience.acceptLanguage);
    return {
      status: known.status,
      headers: {
        ...headers,
        'Content-Type': 'text/html; charset=UTF-8',
        'Content-Language': language,
        // The same address answers JSON or a page (Accept), in English or Korean (Accept-Language).
        Vary: 'Accept, Accept-Language',
        ...ERROR_PAGE_SECURITY_HEADERS,
      },
      body: renderErrorPage(pageContentOf(known, audience, language)),
    };
  }
  return jsonAnswer(known.status, toErrorEnvelope(known.message), headers);
}
