import type { Answer } from '../../http/answer.js';
import { type ErrorKind, LinkletError, type LinkletErrorOptions } from '../../http/errors.js';
import { SECURITY_HEADERS } from '../../http/security-headers.js';

/** Where Shlink's problem types live: its clients compare `type` with these addresses. */
const TYPE_BASE = 'https://shlink.io/api/error/';

/** A Shlink problem's type (the last part of its address), title and status. */
interface ProblemKind {
  type: string;
  title: string;
  status: number;
}

/**
 * Each Linklet error kind as a Shlink problem. Shlink's own types where it has one (a taken slug
 * is its `non-unique-slug`, a 400 as Shlink answers it; a refused key its `invalid-api-key`);
 * the rest (405, 413, 429…) are failures Shlink's API has no type for, named in the same style.
 */
const PROBLEM_OF_KIND = {
  invalid: { type: 'invalid-data', title: 'Invalid data', status: 400 },
  unauthorized: { type: 'invalid-api-key', title: 'Invalid API key', status: 401 },
  forbidden: { type: 'forbidden-operation', title: 'Forbidden operation', status: 403 },
  not_found: { type: 'not-found', title: 'Not found', status: 404 },
  method_not_allowed: { type: 'method-not-allowed', title: 'Method not allowed', status: 405 },
  request_timeout: { type: 'request-timeout', title: 'Request timeout', status: 408 },
  conflict: { type: 'non-unique-slug', title: 'Invalid custom slug', status: 400 },
  gone: { type: 'short-url-expired', title: 'Short URL expired', status: 410 },
  payload_too_large: { type: 'payload-too-large', title: 'Payload too large', status: 413 },
  rate_limited: { type: 'too-many-requests', title: 'Too many requests', status: 429 },
  headers_too_large: { type: 'headers-too-large', title: 'Request headers too large', status: 431 },
  unavailable: { type: 'service-unavailable', title: 'Service unavailable', status: 503 },
  internal: { type: 'internal-server-error', title: 'Internal server error', status: 500 },
} as const satisfies Record<ErrorKind, ProblemKind>;

/** Members a Shlink problem adds to the four of RFC 7807 (`shortCode`, `customSlug`, `invalidElements`…). */
export type ProblemExtras = Record<string, unknown>;

/**
 * A `LinkletError` that says exactly which Shlink problem it is: a type other than its kind's
 * (Shlink's `short-url-not-found` is a `not_found`, its `missing-authentication` an
 * `unauthorized`) and the extra members Shlink's clients read.
 */
export class ShlinkProblemError extends LinkletError {
  readonly problemType: string | undefined;
  readonly problemTitle: string | undefined;
  /** Another status than the kind's, where Shlink answers one Linklet has no kind for (501). */
  readonly problemStatus: number | undefined;
  readonly extras: ProblemExtras;

  constructor(
    kind: ErrorKind,
    detail: string,
    problem: { type?: string; title?: string; status?: number; extras?: ProblemExtras },
    options?: LinkletErrorOptions,
  ) {
    super(kind, detail, options);
    this.problemType = problem.type;
    this.problemTitle = problem.title;
    this.problemStatus = problem.status;
    this.extras = problem.extras ?? {};
  }
}

/** The RFC 7807 document Shlink would write for `error`. */
export function problemOf(error: LinkletError): ProblemExtras & ProblemKind & { detail: string } {
  const kind: ProblemKind = PROBLEM_OF_KIND[error.kind];
  const specific = error instanceof ShlinkProblemError ? error : undefined;
  // An invalid request names its fields as Shlink does, even when the rule that refused it did not.
  const extras = specific?.extras ?? (error.kind === 'invalid' ? { invalidElements: [] } : {});
  return {
    type: `${TYPE_BASE}${specific?.problemType ?? kind.type}`,
    title: specific?.problemTitle ?? kind.title,
    detail: error.message,
    status: specific?.problemStatus ?? kind.status,
    ...extras,
  };
}

/**
 * The answer of any error on a Shlink path, raised by its routes or before them (the rate
 * limiter, the body limit, the server's parser): a problem document. `headers` carries what the
 * error asks for (`Allow`, `Retry-After`) and, for a request with `Origin`, CORS (`errorAnswer`
 * adds it), so a browser client reads why.
 */
export function shlinkProblemAnswer(error: LinkletError, headers: Record<string, string> = {}): Answer {
  const problem = problemOf(error);
  return {
    status: problem.status,
    headers: {
      'Content-Type': 'application/problem+json',
      'Cache-Control': 'no-store',
      ...headers,
      ...SECURITY_HEADERS,
    },
    body: JSON.stringify(problem),
  };
}

/** Shlink's `invalid-data` for these fields, with a detail that says what to change. */
export function invalidData(fields: string[], detail: string): ShlinkProblemError {
  return new ShlinkProblemError('invalid', detail, { extras: { invalidElements: fields } });
}

/**
 * Shlink's `short-url-not-found`: the same for a missing link and another owner's. With the
 * `domain` it was asked on (another than Linklet's), worded and with the member Shlink adds then.
 */
export function shortUrlNotFound(shortCode: string, domain?: string): ShlinkProblemError {
  const onDomain = domain === undefined ? '' : ` for domain "${domain}"`;
  return new ShlinkProblemError('not_found', `No URL found with short code "${shortCode}"${onDomain}`, {
    type: 'short-url-not-found',
    title: 'Short URL not found',
    extras: domain === undefined ? { shortCode } : { shortCode, domain },
  });
}

/** Shlink's `tag-not-found`: no link of the key carries the tag (another owner's tags never show). */
export function tagNotFound(tag: string): ShlinkProblemError {
  return new ShlinkProblemError('not_found', `Tag with name "${tag}" could not be found`, {
    type: 'tag-not-found',
    title: 'Tag not found',
    extras: { tag },
  });
}

/** Shlink's `domain-not-found`: Linklet has one domain, `DEFAULT` or the base URL's host. */
export function domainNotFound(authority: string): ShlinkProblemError {
  return new ShlinkProblemError('not_found', `Domain with authority "${authority}" could not be found`, {
    type: 'domain-not-found',
    title: 'Domain not found',
    extras: { authority },
  });
}

/** Shlink's `non-unique-slug` (a 400, as Shlink answers it). */
export function nonUniqueSlug(slug: string): ShlinkProblemError {
  return new ShlinkProblemError('conflict', `Provided slug "${slug}" is already in use.`, {
    extras: { customSlug: slug },
  });
}

/** A Shlink operation Linklet does not have: refused (400) rather than answered with made-up data. */
export function notSupported(detail: string): ShlinkProblemError {
  return new ShlinkProblemError('invalid', detail, { type: 'not-supported', title: 'Not supported' });
}

/** Shlink's answer where Mercure (its live updates) is not set up: clients then poll instead. */
export function mercureNotConfigured(): ShlinkProblemError {
  return new ShlinkProblemError('invalid', 'This Shlink instance is not integrated with a mercure hub.', {
    type: 'mercure-not-configured',
    title: 'Mercure integration not configured',
    status: 501,
  });
}

/** Shlink's answer to a request without a key (any endpoint but health needs one). */
export function missingAuthentication(): ShlinkProblemError {
  return new ShlinkProblemError(
    'unauthorized',
    'Expected one of the following authentication headers, ["X-Api-Key"], but none were provided',
    { type: 'missing-authentication', title: 'Invalid authorization', extras: { expectedHeaders: ['X-Api-Key'] } },
  );
}
