import { MAX_CODE_LENGTH, RESERVED_CODES } from './code.js';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS } from './expiry.js';

export type Dialect = 'legacy' | 'v1';

export interface ApiDescriptionOptions {
  baseUrl: string;
  maxUrlLength: number;
  timeZone: string;
  maxBodyBytes: number;
}

/**
 * What `GET /api.php` and `GET /api/v1/shorten` answer: enough for a person or a client to call
 * the API without other documentation. The shape is documented in the README.
 */
export function describeApi(dialect: Dialect, options: ApiDescriptionOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
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
  return {
    name: 'Linklet',
    description: 'URL shortener: POST a URL, get a short URL that redirects to it until it expires.',
    endpoint: dialect === 'legacy' ? `${base}/api.php` : `${base}/api/v1/shorten`,
    version: dialect,
    endpoints: [
      {
        method: 'POST',
        path: '/api.php',
        success_status: 200,
        short_url: `${base}/{code}`,
        expiration_date_format: `YYYY-MM-DD HH:MM:SS (${options.timeZone})`,
        parameters,
      },
      {
        method: 'POST',
        path: '/api/v1/shorten',
        success_status: 201,
        short_url: `${base}/{code}/`,
        expiration_date_format: 'ISO 8601 UTC with milliseconds, e.g. 2026-01-31T12:00:00.000Z',
        parameters,
      },
      { method: 'GET', path: '/api.php', description: 'This description (legacy endpoint).' },
      { method: 'GET', path: '/api/v1/shorten', description: 'This description (v1 endpoint).' },
      { method: 'GET', path: '/api/v1/openapi.json', description: 'OpenAPI 3.1 document of the API.' },
      {
        method: 'GET',
        path: '/{code}',
        description: '302 to the original URL while the link is active; 404 for an unknown code, 410 once expired.',
      },
      { method: 'GET', path: '/health', description: '200 when the store answers, 503 when it does not.' },
    ],
    expire_durations: EXPIRE_DURATIONS,
    default_expire_duration: DEFAULT_EXPIRE_DURATION,
    limits: {
      max_url_length: options.maxUrlLength,
      max_code_length: MAX_CODE_LENGTH,
      max_body_bytes: options.maxBodyBytes,
    },
    errors: {
      400: 'A field is missing or breaks a rule; the message names it.',
      401: 'API key missing or wrong (only when the server requires one).',
      404: 'Unknown path or code.',
      405: 'Method not allowed; see the Allow header.',
      409: 'custom_code is in use by an active link.',
      410: 'The short URL has expired.',
      413: `Body larger than ${options.maxBodyBytes} bytes.`,
      500: 'Unexpected failure; the log has details under the request id.',
    },
  };
}
