import { type ApiOperationSpec, type ApiResponseSpec, STATUS_MEANINGS } from './api-operation.js';

/**
 * Answers a request can get whatever it asks for, because they are given before (or instead of)
 * the route: the server's HTTP parser (400, 408, 413, 431), the rate limiter (429), the API key
 * check (401), a path that does not take the method (405) and an unexpected failure (500). They
 * are written once here, as shared OpenAPI responses, and added to every operation they apply to.
 */
export const COMMON_RESPONSES = {
  NotValidHttp: {
    status: 400,
    description:
      'The request is not valid HTTP/1.1 (raw non-ASCII bytes in the path, say: percent-encode them); the connection is closed.',
    schema: 'Error',
  },
  Unauthorized: { status: 401, description: STATUS_MEANINGS[401] as string, schema: 'Error' },
  MethodNotAllowed: {
    status: 405,
    description: 'The path does not take this method.',
    schema: 'Error',
    headers: { Allow: 'The methods the path takes.' },
  },
  RequestTimeout: { status: 408, description: STATUS_MEANINGS[408] as string, schema: 'Error' },
  ContentTooLarge: {
    status: 413,
    description: 'The request body (or its chunk extensions) is too large.',
    schema: 'Error',
  },
  TooManyRequests: {
    status: 429,
    description: STATUS_MEANINGS[429] as string,
    schema: 'Error',
    headers: { 'Retry-After': 'Seconds to wait before trying again.' },
  },
  HeadersTooLarge: { status: 431, description: STATUS_MEANINGS[431] as string, schema: 'Error' },
  InternalError: { status: 500, description: STATUS_MEANINGS[500] as string, schema: 'Error' },
} as const satisfies Record<string, ApiResponseSpec & { status: number }>;

export type CommonResponseName = keyof typeof COMMON_RESPONSES;

/** One answer of an operation: its own, or a shared one (`shared` names it). */
export interface OperationResponse {
  status: number;
  spec: ApiResponseSpec;
  shared?: CommonResponseName;
}

/** Which common answers an operation can get, given how it is guarded. */
function commonNamesOf(operation: Pick<ApiOperationSpec, 'auth' | 'rateLimited'>): CommonResponseName[] {
  const names: CommonResponseName[] = ['NotValidHttp', 'MethodNotAllowed', 'RequestTimeout', 'ContentTooLarge'];
  if (operation.auth !== 'none') names.push('Unauthorized');
  if (operation.rateLimited !== false) names.push('TooManyRequests');
  names.push('HeadersTooLarge', 'InternalError');
  return names;
}

/**
 * Every answer an operation can give, by status: its own, then the common ones it does not
 * answer itself (its own 400 or 413 says more than the common one).
 */
export function responsesOf(operation: Pick<ApiOperationSpec, 'auth' | 'rateLimited' | 'responses' | 'errorDocument'>) {
  const all = new Map<number, OperationResponse>();
  for (const [status, spec] of Object.entries(operation.responses)) {
    all.set(Number(status), { status: Number(status), spec });
  }
  for (const name of commonNamesOf(operation)) {
    const { status, ...spec } = COMMON_RESPONSES[name];
    if (all.has(status)) continue;
    // A peer API's path answers these in its own document: described there, not shared.
    const own = operation.errorDocument;
    all.set(status, own ? { status, spec: { ...spec, ...own } } : { status, spec, shared: name });
  }
  return [...all.values()].sort((a, b) => a.status - b.status);
}
