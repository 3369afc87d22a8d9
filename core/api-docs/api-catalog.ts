import { tagOperations } from '../management/links/tag-operations.js';
import { MAX_LISTED_ROWS } from '../management/porting/import-report.js';
import { PASSWORD_PARAMETER, passwordShortUrlAnswers } from '../passwords/password-schemas.js';
import { MAX_CODE_LENGTH, RESERVED_CODES } from '../rules/code.js';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS } from '../rules/expiry.js';
import { trimTrailingSlashes } from '../rules/url.js';
import {
  type ApiCatalogOptions,
  type ApiOperationSpec,
  type ApiResponseSpec,
  STATUS_MEANINGS,
} from './api-operation.js';
import { keyOperations, linkOperations } from './management-catalog.js';

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
        'Cache-Control':
          "`private, max-age=<seconds>`: the smaller of the seconds the link has left and the server's `REDIRECT_CACHE_SECONDS` (default 60); `no-store` when that is 0.",
      },
    },
    404: { description: 'No link has this code.', schema: ERROR, page: true },
    410: { description: 'The link expired.', schema: ERROR, page: true },
    503: withMeaning(503),
    ...passwordShortUrlAnswers(),
  });
  const resolveOperation = (path: string, operationId: string, summary: string): ApiOperationSpec => ({
    method: 'GET',
    path,
    operationId,
    tag: 'redirect',
    summary,
    description:
      "Redirects to the original URL while the link is active; 404 for an unknown code (or a malformed percent-encoding), 410 once it expired. A browser gets a small page for 404 and 410. A link with a password answers 302 only with the right one in `X-Link-Password` (or from its page's form, a POST of `password` to the same URL); that 302 is `Cache-Control: no-store`.",
    auth: 'none',
    pathParameters: [codeParameter],
    responses: shortUrlAnswers(),
  });

  const operations: ApiOperationSpec[] = [
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
      requestBody: {
        ...requestBody,
        schema: 'V1ShortenRequest',
        description:
          'The URL to shorten and the optional code, expiry, password, title and tags (v1 only: `/api.php` ignores them).',
      },
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
        parameters: [...parameters, PASSWORD_PARAMETER],
      },
    },
    describeOperation('/api.php', 'describeLegacy', 'legacy endpoint'),
    describeOperation('/api/v1/shorten', 'describeV1', 'v1 endpoint'),
    {
      ...describeOperation('/', 'describeRoot', 'site root'),
      description:
        'The API description, for a client that asks for JSON. A browser (an `Accept` that prefers `text/html`) gets the web app instead, when the server has it built: shorten, and with an API key manage your links.',
      responses: {
        200: {
          description: 'The API description, or the web app’s page (`Cache-Control: no-cache`).',
          schema: 'ApiDescription',
          alternatives: { 'text/html': { type: 'string', description: 'The web app’s page.' } },
          headers: { Vary: '`Accept`: JSON clients and browsers get different bodies.' },
        },
      },
    },
    {
      method: 'GET',
      path: '/assets/{file}',
      operationId: 'webAppAsset',
      tag: 'webapp',
      summary: 'A file of the web app',
      description:
        'The web app’s scripts and styles. Names carry a hash of the content, so each is cached for good (`Cache-Control: public, max-age=31536000, immutable`).',
      auth: 'none',
      pathParameters: [{ name: 'file', description: 'The file name, as the page links it.' }],
      responses: {
        200: {
          description: 'The file.',
          alternatives: {
            'text/javascript': { type: 'string', description: 'A script of the web app.' },
            'text/css': { type: 'string', description: 'A stylesheet of the web app.' },
          },
        },
        404: { description: 'No such file.', schema: ERROR, page: true },
      },
    },
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
  return options.management
    ? [...operations, ...keyOperations(options), ...linkOperations(options), ...portingOperations(), ...tagOperations()]
    : operations;
}

/** Export and import of the caller's links: served where the store keeps owners' links. */
function portingOperations(): ApiOperationSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/links/export',
      operationId: 'exportLinks',
      tag: 'links',
      summary: 'Export your links',
      description:
        "The caller's links (every link for the administrator's key), newest first, streamed page by page: `?format=csv` (a UTF-8 byte order mark, then `code,short_url,original_url,created_at,expiration_date,status,clicks,title,tags`, tags as one comma-separated cell) or `?format=json` (the default: `{version: 1, exported_at, links}`). `POST /api/v1/links/import` reads either back.",
      auth: 'required',
      responses: {
        200: {
          description: 'The links, as an attachment (`Content-Disposition`).',
          schema: 'LinkExport',
          alternatives: {
            'text/csv': { type: 'string', description: 'The CSV export: a header row, then one link per row (CRLF).' },
          },
          headers: { 'Content-Disposition': '`attachment; filename="linklet-links-<date>.<format>"`.' },
        },
        400: withMeaning(400, ' Here: `format` is not `csv` or `json`.'),
      },
    },
    {
      method: 'POST',
      path: '/api/v1/links/import',
      operationId: 'importLinks',
      tag: 'links',
      summary: 'Import links',
      description: `A file exported by Linklet (CSV or JSON), Shlink (CSV), Dub (CSV), Sink (JSON), YOURLS (its yourls_url table as CSV) or Kutt (GET /api/v2/links JSON), recognised from its content. Each row is a create with the caller's key under the usual rules, its own code as custom_code; the expiry it gives, else \`?expire_duration=\` (default ${DEFAULT_EXPIRE_DURATION}); rows already expired are skipped, and an expiry more than a month away is cut to a month (the row's message says so). Every row is counted by its result (created, unchanged, conflict, invalid, skipped); \`results\` lists the first ${MAX_LISTED_ROWS} rows, then only rows not created, with a message each, and \`results_omitted\` counts the rest. Valid rows are kept whatever happens to the others. Where the server has rate limits, imports create at most its import budget of links a minute per owner: rows past it are skipped (saying so, with \`retry_after_seconds\`), and an import with none left is a 429.`,
      auth: 'required',
      requestBody: {
        schema: 'ImportFile',
        description: 'The export file as it was written, up to 10 MiB of UTF-8.',
        alternatives: {
          'text/csv': { type: 'string', description: 'A CSV export (`,`, `;` or tab; quoted fields; a BOM is fine).' },
        },
      },
      responses: {
        200: { description: 'The file was read; each row has its result.', schema: 'ImportReport' },
        400: withMeaning(
          400,
          ' Here also: a file in none of the formats (the message lists them), not UTF-8, or empty; a bad `expire_duration`.',
        ),
        413: withMeaning(413, ' An import file may be at most 10 MiB.'),
        503: { ...withMeaning(503), headers: { 'Retry-After': 'Seconds to wait before trying again.' } },
      },
    },
  ];
}
