import { acceptPrefersHtml } from './accept.js';
import { type Answer, API_CORS_HEADERS, isApiPath, jsonAnswer } from './answer.js';
import { toErrorEnvelope } from './envelopes.js';
import { renderErrorPage } from './error-page.js';
import { type ErrorKind, LinkletError } from './errors.js';
import { SECURITY_HEADERS } from './security-headers.js';

/** Where an error is answered: decides between the HTML page and JSON, and whether CORS applies. */
export interface ErrorAudience {
  /** The request's path (no query). */
  path: string;
  /** The request's `Accept` header. */
  accept?: string | null;
}

const INTERNAL_MESSAGE = 'Internal server error; the server log has the details.';
// The kinds a browser following a short link may meet; it gets a page for them, not JSON.
const PAGE_KINDS: ReadonlySet<ErrorKind> = new Set(['not_found', 'gone']);
const PAGE_TITLES: Partial<Record<ErrorKind, string>> = { not_found: 'Not found', gone: 'Link expired' };

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
 * API paths, and the security headers. Anything but a `LinkletError` is a bare 500 whose message
 * reveals nothing.
 */
export function errorAnswer(error: unknown, audience?: ErrorAudience): Answer {
  const known = error instanceof LinkletError ? error : new LinkletError('internal', INTERNAL_MESSAGE);
  const api = audience !== undefined && isApiPath(audience.path);
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (known.allow) headers.Allow = known.allow.join(', ');
  if (known.retryAfterSeconds !== undefined) headers['Retry-After'] = String(known.retryAfterSeconds);
  if (api) Object.assign(headers, API_CORS_HEADERS);
  if (audience !== undefined && !api && PAGE_KINDS.has(known.kind) && acceptPrefersHtml(audience.accept)) {
    return {
      status: known.status,
      headers: { ...headers, 'Content-Type': 'text/html; charset=UTF-8', ...SECURITY_HEADERS },
      body: renderErrorPage(PAGE_TITLES[known.kind] ?? 'Error', known.message),
    };
  }
  return jsonAnswer(known.status, toErrorEnvelope(known.message), headers);
}
