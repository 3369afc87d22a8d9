/** What the API documents depend on: the server's own settings. */
export interface ApiCatalogOptions {
  baseUrl: string;
  maxUrlLength: number;
  timeZone: string;
  maxBodyBytes: number;
  /** The store serves owners' links (the server's does; the extension's does not): their routes are listed. */
  management?: boolean;
  /** Owners' webhooks are served (`/api/v1/webhooks…`, and the document's `webhooks`). */
  webhooks?: boolean;
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
  /** Bodies of other media types (a CSV export), by media type: their inline JSON Schemas. */
  alternatives?: Record<string, object>;
  /** The body's media type when it is not `application/json` (Shlink's problem and health documents). */
  mediaType?: string;
}

export type ApiTag = keyof typeof API_TAGS;

/**
 * One route of the API, the single source of both descriptions: the OpenAPI document
 * (`core/api-docs/openapi.ts`) and the `GET /api.php` description (`core/api-docs/api-description.ts`). A new
 * endpoint is one more entry in `listApiOperations`; `HEAD` of a `GET`, `OPTIONS` on `/api`
 * paths and the answers any request can get (`COMMON_RESPONSES`) are added for it.
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
   * always; `none`: never (no 401); `signature`: YOURLS's, where the key may also come as
   * `signature` in the query or form, and a missing or wrong one is its 403 (never a 401).
   */
  auth: 'none' | 'optional' | 'required' | 'signature';
  /** False for requests the rate limiter lets through always (health checks, preflights). */
  rateLimited?: boolean;
  pathParameters?: Array<{ name: string; description: string }>;
  /** The query's parameters, each with the JSON Schema of its value. */
  queryParameters?: Array<{ name: string; description: string; schema: object }>;
  /** `schema`: the JSON body's schema; absent when the body is never JSON (only `alternatives`). */
  requestBody?: { schema?: string; description: string; alternatives?: Record<string, object> };
  /** What the operation itself answers, by status (the common answers are added to these). */
  responses: Record<number, ApiResponseSpec>;
  /** More members of its entry in the API description: what a client needs to call it. */
  describe?: Record<string, unknown>;
  /**
   * A peer API's path whose every error, the common ones too, is that API's own document
   * (Shlink's `application/problem+json`) rather than Linklet's `Error`.
   */
  errorDocument?: { schema: string; mediaType: string };
}

export const API_TAGS = {
  shorten: 'Make short links (legacy `/api.php` and v1 dialects).',
  redirect: 'Follow short URLs.',
  about: 'What the API is: its description and its OpenAPI document.',
  service: 'Operating the server: health checks.',
  keys: 'API keys: the administrator makes, lists and revokes owners’ keys; any key can ask whose it is.',
  links:
    'Your links (with an API key): list, search, change, disable and delete them, export them, and import them from Linklet or another shortener.',
  webhooks:
    'Webhooks (with an API key): endpoints told of your links being made, changed, deleted and clicked, signed per Standard Webhooks.',
  webapp: 'The web app a browser gets at `/`, and its files.',
  compatibility:
    'The APIs of other shorteners, for the clients that already speak them: YOURLS at `/yourls-api.php` (see docs/yourls.md), and Shlink’s REST API (v3 and v2) under `/rest/`, answering as Shlink 4.4 does (see docs/shlink.md).',
} as const;

/** What each error status means anywhere in the API: the description's `errors` table. */
export const STATUS_MEANINGS: Record<number, string> = {
  400: 'A field is missing or breaks a rule (the message names it), or the request is not valid HTTP/1.1.',
  401: 'API key missing or wrong (only when the server requires one).',
  403: "The key may not do this: an administrator endpoint called with an owner's key.",
  404: 'Unknown path or code.',
  405: 'Method not allowed; see the Allow header.',
  408: 'The request did not arrive in time; the connection is closed.',
  409: 'custom_code is in use by an active link.',
  410: 'The short URL has expired.',
  413: 'The request body is too large.',
  429: 'Too many requests from this client (only when the server sets a rate limit); see Retry-After.',
  431: 'The request headers are too large.',
  500: 'Unexpected failure; the log has details under the request id.',
  501: "Not available on Linklet: Shlink's live updates (`mercure-info`).",
  503: 'The link store cannot answer or take the link now; see Retry-After where sent.',
};
