/**
 * Every way a request can fail, by what went wrong rather than by HTTP status, so the core's
 * rules never speak HTTP and the mapping below is the one place that does.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'rate_limited'
  | 'headers_too_large'
  | 'unavailable'
  | 'internal';

/** The HTTP status of each error kind; `satisfies` turns a forgotten kind into a compile error. */
export const statusOfErrorKind = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  rate_limited: 429,
  headers_too_large: 431,
  unavailable: 503,
  internal: 500,
} as const satisfies Record<ErrorKind, number>;

export interface LinkletErrorOptions {
  /** Methods a path accepts, sent as the `Allow` header of a 405. */
  allow?: readonly string[];
  /** What the error was caused by, for the log only (never sent to the client). */
  cause?: unknown;
  /** When to try again (a 429 or 503), sent as the `Retry-After` header in whole seconds. */
  retryAfterSeconds?: number;
  /** Why a short link is gone (410), so the page a browser gets says it: expired when, or turned off. */
  gone?: GoneReason;
}

/**
 * Why a short link answers 410: it expired at `at` (epoch ms), its owner turned it off, it opens
 * only at `at` (its `valid_since`), or it has had all the visits its `max_visits` allows.
 */
export type GoneReason =
  | { reason: 'expired'; at: number }
  | { reason: 'disabled' }
  | { reason: 'not_yet_valid'; at: number }
  | { reason: 'used_up' };

/**
 * The one error type of Linklet. Its message is shown to the client as is, so it must say which
 * field broke which rule, or what to do next.
 */
export class LinkletError extends Error {
  readonly kind: ErrorKind;
  readonly allow: readonly string[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly gone: GoneReason | undefined;

  constructor(kind: ErrorKind, message: string, options: LinkletErrorOptions = {}) {
    // A refused request (4xx) is never logged (`logLevelOf`), so its stack would never be read,
    // and capturing one was a fifth of a refused create's CPU on the server and of a 429's: a
    // client sending bad requests in bulk paid it on each. Engines without the V8 limit ignore it.
    const limits = Error as { stackTraceLimit?: number };
    const stackTraceLimit = limits.stackTraceLimit;
    if (statusOfErrorKind[kind] < 500) limits.stackTraceLimit = 0;
    super(message, { cause: options.cause });
    limits.stackTraceLimit = stackTraceLimit;
    this.name = 'LinkletError';
    this.kind = kind;
    this.allow = options.allow;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.gone = options.gone;
  }

  get status(): number {
    return statusOfErrorKind[this.kind];
  }
}

/** Shorthand for the most common failure: a field broke a rule (400). */
export function invalid(message: string): LinkletError {
  return new LinkletError('invalid', message);
}
