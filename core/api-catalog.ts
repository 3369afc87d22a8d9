import { trimTrailingSlashes } from './answer.js';
import { MAX_CODE_LENGTH, RESERVED_CODES } from './code.js';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS } from './expiry.js';

/** What the API documents depend on: the server's own settings. */
export interface ApiCatalogOptions {
  baseUrl: string;
  maxUrlLength: number;
  timeZone: string;
  maxBodyBytes: number;
}

/** One answer of an operation. */
export interface ApiResponseSpec {
  description: string;
  /** Name of the JSON body's schema in `API_SCHEMAS`; absent: the answer has no body. */
  schema?: string;
  /** A browser (whose `Accept` prefers `text/html`) gets a small HTML page instead of the JSON. */
  page?: boolean;
  /** Response headers the client needs, by name: what each says. */
  headers?: Record<string, string>;
}

export type ApiTag = keyof typeof API_TAGS;

/**
 * One route of the API, the single source of both descriptions: the OpenAPI document
 * (`core/openapi.ts`) and the `GET /api.php` description (`core/api-description.ts`). A new
 * endpoint is one more entry in `listApiOperations`; `HEAD` of a `GET`, `OPTIONS` on `/api`
 * paths and the answers any request can get (see `COMMON_STATUSES`) are added for it.
 */
export interface ApiOperationSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** An OpenAPI path template such as `/{code}`. */
  path: string;
  operationId: string;
  tag: ApiTag;
  summary: string;
  description: string;
  /**
   * `optional`: a key is checked only when the server sets `API_KEY` (401 otherwise); `required`:
   * always; `none`: never (no 401).
   */
  auth: 'none' | 'optional' | 'required';
  /** False for requests the rate limiter lets through always (health checks, preflights). */
  rateLimited?: boolean;
  pathParameters?: Array<{ name: string; description: string }>;
  requestBody?: { schema: string; description: string };
  /** What the operation itself answers, by status (the common answers are added to these). */
  responses: Record<number, ApiResponseSpec>;
  /** More members of its entry in the API description: what a client needs to call it. */
  describe?: Record<string, unknown>;
}

export const API_TAGS = {
  shorten: 'Make short links (legacy `/api.php` and v1 dialects).',
  redirect: 'Follow short URLs.',
  about: 'What the API is: its description and its OpenAPI document.',
  service: 'Operating the server: health checks.',
} as const;

/** What each error status means anywhere in the API: the description's `errors` table. */
export const STATUS_MEANINGS: Record<number, string> = {
  400: 'A field is missing or breaks a rule (the message names it), or the request is not valid HTTP/1.1.',
  401: 'API key missing or wrong (only when the server requires one).',
  404: 'Unknown path or code.',
  405: 'Method not allowed; see the Allow header.',
  408: 'The request did not arrive in time; the connection is closed.',
  409: 'custom_code is in use by an active link.',
  410: 'The short URL has expired.',
  413: 'The request body is too large.',
  429: 'Too many requests from this client (only when the server sets a rate limit); see Retry-After.',
  431: 'The request headers are too large.',
  500: 'Unexpected failure; the log has details under the request id.',
  503: 'The link store cannot answer or take the link now; see Retry-After where sent.',
};

const ERROR = 'Error';
const withMeaning = (status: number, more = '') => ({
  description: `${STATUS_MEANINGS[status]}${more}`,
  schema: ERROR,
});
const codeParameter = {
  name: 'code',
  description: 'The short code, percent-encoded as UTF-8 (`한글` is `%ED%95%9C%EA%B8%80`); ASCII case does not matter.',
};

/** Every route of the API, in the order the documents list them. */
export function listApiOperations(options: ApiCatalogOptions): ApiOperationSpec[] {
  const base = trimTrailingSlashes(options.baseUrl);
  const parameters = [
    {
      name: 'original_url',
      type: 'string',
      required: true,
      rules: `Absolute http or https URL with a host, at most ${options.maxUrlLength} characters; surrounding whitespace is trimmed; no inner whitespace, control characters or user credentials; not this service's own host.`,
    },
    {
      name: 'custom_code',
      type: 'string',
      required: false,
      rules: `1 to ${MAX_CODE_LENGTH} characters after Unicode NFC: Hangul syllables and jamo, ASCII letters and digits, '_' and '-'. ASCII case does not distinguish codes. Reserved: ${[...RESERVED_CODES].join(', ')}. Absent, null or "" generates a 7-character code.`,
    },
    {
      name: 'expire_duration',
      type: 'string',
      required: false,
      values: EXPIRE_DURATIONS,
      default: DEFAULT_EXPIRE_DURATION,
      rules:
        '24h and 48h are exact hours, 1week is 7 × 24 h, 1month is the same UTC day and time next month (clamped to its last day).',
    },
  ];
  const shortenErrors = (conflict: string): Record<number, ApiResponseSpec> => ({
    400: withMeaning(400, ' Also a body that is not a JSON object, or text with a lone UTF-16 surrogate.'),
    409: { description: conflict, schema: ERROR },
    413: withMeaning(413, ` It may be at most ${options.maxBodyBytes} bytes.`),
    503: { ...withMeaning(503), headers: { 'Retry-After': 'Seconds to wait before trying again.' } },
  });
  const requestBody = { schema: 'ShortenRequest', description: 'The URL to shorten and the optional code and expiry.' };
  const describeOperation = (path: string, operationId: string, which: string): ApiOperationSpec => ({
    method: 'GET',
    path,
    operationId,
    tag: 'about',
    summary: `Describe the API (${which})`,
    description: 'Endpoints, parameters, rules, limits and error statuses, for a person or a client to read.',
    auth: 'none',
    responses: { 200: { description: 'The API description.', schema: 'ApiDescription' } },
  });
  const shortUrlAnswers = (): Record<number, ApiResponseSpec> => ({
    302: {
      description: 'The link is active: redirect to the original URL (its ASCII form).',
      headers: {
        Location: 'The original URL: punycode host, percent-encoded path.',
        'Cache-Control': '`private, max-age=<seconds>`: never longer than the link has left.',
      },
    },
    404: { description: 'No link has this code.', schema: ERROR, page: true },
    410: { description: 'The link expired.', schema: ERROR, page: true },
    503: withMeaning(503),
  });
  const resolveOperation = (path: string, operationId: string, summary: string): ApiOperationSpec => ({
    method: 'GET',
    path,
    operationId,
    tag: 'redirect',
    summary,
    description:
      'Redirects to the original URL while the link is active; 404 for an unknown code (or a malformed percent-encoding), 410 once it expired. A browser gets a small page for 404 and 410.',
    auth: 'none',
    pathParameters: [codeParameter],
    responses: shortUrlAnswers(),
  });

  return [
    {
      method: 'POST',
      path: '/api.php',
      operationId: 'shortenLegacy',
      tag: 'shorten',
      summary: 'Shorten a URL (legacy dialect)',
      description: `The PHP-era dialect: 200, a short URL without trailing \`/\`, \`expiration_date\` as \`YYYY-MM-DD HH:MM:SS\` in ${options.timeZone}. The body must be a JSON object whatever its Content-Type says.`,
      auth: 'optional',
      requestBody,
      responses: {
        200: { description: 'The link was made.', schema: 'LegacySuccess' },
        ...shortenErrors(
          'custom_code is in use; the message names the moment (YYYY-MM-DD HH:MM:SS) after which it is free.',
        ),
      },
      describe: {
        success_status: 200,
        short_url: `${base}/{code}`,
        expiration_date_format: `YYYY-MM-DD HH:MM:SS (${options.timeZone})`,
        parameters,
      },
    },
    {
      method: 'POST',
      path: '/api/v1/shorten',
      operationId: 'shortenV1',
      tag: 'shorten',
      summary: 'Shorten a URL',
      description:
        'The current dialect: 201 with `Location`, a short URL ending in `/`, `expiration_date` in ISO 8601 UTC. The body must be a JSON object whatever its Content-Type says.',
      auth: 'optional',
      requestBody,
      responses: {
        201: {
          description: 'The link was made.',
          schema: 'V1Success',
          headers: { Location: 'The short URL, percent-encoded.' },
        },
        ...shortenErrors('custom_code is in use.'),
      },
      describe: {
        success_status: 201,
        short_url: `${base}/{code}/`,
        expiration_date_format: 'ISO 8601 UTC with milliseconds, e.g. 2026-01-31T12:00:00.000Z',
        parameters,
      },
    },
    describeOperation('/api.php', 'describeLegacy', 'legacy endpoint'),
    describeOperation('/api/v1/shorten', 'describeV1', 'v1 endpoint'),
    describeOperation('/', 'describeRoot', 'site root'),
    {
      method: 'GET',
      path: '/api/v1/openapi.json',
      operationId: 'openApiDocument',
      tag: 'about',
      summary: 'The OpenAPI document',
      description: 'This OpenAPI 3.1 document, with the server’s own base URL and limits.',
      auth: 'none',
      responses: { 200: { description: 'The OpenAPI 3.1 document.', schema: 'OpenApiDocument' } },
    },
    resolveOperation('/{code}', 'resolve', 'Follow a short URL'),
    resolveOperation('/{code}/', 'resolveSlash', 'Follow a v1 short URL'),
    {
      method: 'GET',
      path: '/health',
      operationId: 'health',
      tag: 'service',
      summary: 'Health check',
      description: 'Whether the link store answers: for load balancers and supervisors. Never rate limited.',
      auth: 'none',
      rateLimited: false,
      responses: {
        200: { description: 'The store answers.', schema: 'Health' },
        503: { description: 'The link store is not answering.', schema: ERROR },
      },
    },
  ];
}
