import { type ErrorKind, LinkletError } from '../../http/errors.js';
import type { YourlsResult } from './yourls-format.js';

/**
 * A refusal with the `code` YOURLS gives that failure (`error:keyword`, `error:nourl`), where the
 * kind alone does not say which field it was.
 */
export class YourlsRefusal extends LinkletError {
  readonly yourlsCode: string;

  constructor(kind: ErrorKind, message: string, yourlsCode: string) {
    super(kind, message);
    this.yourlsCode = yourlsCode;
  }
}

/**
 * Every way a request can fail, as YOURLS says it: the HTTP status and the `code`. YOURLS has no
 * 401 (a missing or wrong signature is its 403 "Please log in") and answers a taken keyword 400.
 */
const FAILURE_OF_KIND = {
  invalid: { status: 400, code: 'error:invalid' },
  unauthorized: { status: 403, code: 'error:auth' },
  forbidden: { status: 403, code: 'error:forbidden' },
  not_found: { status: 404, code: 'error:notfound' },
  method_not_allowed: { status: 405, code: 'error:method' },
  request_timeout: { status: 408, code: 'error:timeout' },
  conflict: { status: 400, code: 'error:keyword' },
  gone: { status: 404, code: 'error:notfound' },
  payload_too_large: { status: 413, code: 'error:toolarge' },
  rate_limited: { status: 429, code: 'error:flood' },
  headers_too_large: { status: 431, code: 'error:headers' },
  unavailable: { status: 503, code: 'error:unavailable' },
  internal: { status: 500, code: 'error:db' },
} as const satisfies Record<ErrorKind, { status: number; code: string }>;

const INTERNAL_MESSAGE = 'Internal server error; the server log has the details.';

/**
 * Any error as YOURLS writes a failure: a missing or refused signature as its login refusal
 * (`message` and `errorCode` 403 only, like YOURLS's `auth.php`), anything else as
 * `yourls_add_new_link` writes one (`status: "fail"`, `code`, `message`, `errorCode`,
 * `statusCode`). `simple` carries the message, so a plain-text client shows why.
 */
export function yourlsFailure(error: unknown): YourlsResult {
  const known = error instanceof LinkletError ? error : new LinkletError('internal', INTERNAL_MESSAGE);
  const { status, code } = FAILURE_OF_KIND[known.kind];
  const headers: Record<string, string> = {};
  if (known.allow) headers.Allow = known.allow.join(', ');
  if (known.retryAfterSeconds !== undefined) headers['Retry-After'] = String(known.retryAfterSeconds);
  const message = known.message;
  if (known.kind === 'unauthorized') {
    return { status, body: { message, errorCode: String(status) }, simple: message, headers };
  }
  const yourlsCode = known instanceof YourlsRefusal ? known.yourlsCode : code;
  return {
    status,
    body: { status: 'fail', code: yourlsCode, message, errorCode: String(status), statusCode: String(status) },
    simple: message,
    headers,
  };
}
