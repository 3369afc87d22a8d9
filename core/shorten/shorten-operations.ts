import type { ApiCatalogOptions, ApiOperationSpec, ApiResponseSpec } from '../api-docs/api-operation.js';
import { describeOperation, ERROR, withMeaning } from '../api-docs/operation-parts.js';
import { PASSWORD_PARAMETER } from '../passwords/password-schemas.js';
import { MAX_CODE_LENGTH, RESERVED_CODES } from '../rules/code.js';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS } from '../rules/expiry.js';
import { trimTrailingSlashes } from '../rules/url.js';

/** The create endpoints (both dialects) and their descriptions at GET. */
export function shortenOperations(options: ApiCatalogOptions): ApiOperationSpec[] {
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
        "The current dialect: 201 with `Location`, a short URL ending in `/`, `expiration_date` in ISO 8601 UTC. The body must be a JSON object whatever its Content-Type says. A create without a key also answers a `claim_token`: keep it, and `POST /api/v1/links/claim` with an owner's key makes the link yours.",
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
  ];
}
