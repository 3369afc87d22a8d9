import type { ApiDescriptionOptions } from './api-description.js';
import { MAX_CODE_LENGTH } from './code.js';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS } from './expiry.js';

const json = (schema: object) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json({ $ref: '#/components/schemas/Error' }) });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The OpenAPI 3.1 document served at `/api/v1/openapi.json`. Its schemas are strict
 * (`additionalProperties: false`), and a test checks real responses against them, so the
 * document cannot drift from what the handler does.
 */
export function createOpenApiDocument(options: ApiDescriptionOptions) {
  const shortenOperation = (dialect: 'legacy' | 'v1') => ({
    operationId: dialect === 'legacy' ? 'shortenLegacy' : 'shortenV1',
    summary: dialect === 'legacy' ? 'Shorten a URL (legacy dialect)' : 'Shorten a URL',
    requestBody: { required: true, content: json(ref('ShortenRequest')) },
    responses: {
      [dialect === 'legacy' ? '200' : '201']: {
        description: 'The link was made.',
        ...(dialect === 'v1' && {
          headers: { Location: { description: 'The short URL, percent-encoded.', schema: { type: 'string' } } },
        }),
        content: json(ref(dialect === 'legacy' ? 'LegacySuccess' : 'V1Success')),
      },
      '400': error('A field is missing or breaks a rule; the message names it.'),
      '401': error('API key missing or wrong (only when the server requires one).'),
      '405': error('Method not allowed; see the Allow header.'),
      '409': error(
        dialect === 'legacy'
          ? 'custom_code is in use; the message names the moment (YYYY-MM-DD HH:MM:SS) after which it is free.'
          : 'custom_code is in use.',
      ),
      '413': error(`Body larger than ${options.maxBodyBytes} bytes.`),
      '429': error('Too many requests from this client (only when the server sets a rate limit); see Retry-After.'),
      '500': error('Unexpected failure.'),
      '503': error('The link store cannot take the link right now (locked, full or read-only); see Retry-After.'),
    },
  });
  const describe = (path: string) => ({
    operationId: path === '/api.php' ? 'describeLegacy' : 'describeV1',
    summary: 'Describe the API',
    responses: { '200': { description: 'Endpoints, parameters and rules.', content: json(ref('ApiDescription')) } },
  });
  const successOf = (dateSchema: object, shortUrlPattern: string) => ({
    type: 'object',
    additionalProperties: false,
    required: ['status', 'message', 'data'],
    properties: {
      status: { const: 'success' },
      message: { type: 'string' },
      data: {
        type: 'object',
        additionalProperties: false,
        required: ['short_url', 'original_url', 'code', 'expiration_date'],
        properties: {
          short_url: { type: 'string', pattern: shortUrlPattern },
          original_url: { type: 'string' },
          code: { type: 'string', minLength: 1 },
          expiration_date: dateSchema,
        },
      },
    },
  });
  const redirectResponses = {
    '302': {
      description: 'The link is active: redirect to the original URL.',
      headers: {
        Location: { schema: { type: 'string' } },
        'Cache-Control': { description: 'max-age never exceeds the time left.', schema: { type: 'string' } },
      },
    },
    '404': {
      description: 'No such code.',
      content: { ...json(ref('Error')), 'text/html': { schema: { type: 'string' } } },
    },
    '405': error('Only GET and HEAD.'),
    '410': {
      description: 'The link expired.',
      content: { ...json(ref('Error')), 'text/html': { schema: { type: 'string' } } },
    },
    '429': error('Too many requests from this client (only when the server sets a rate limit); see Retry-After.'),
    '503': error('The link store is not answering; see Retry-After.'),
  };
  const code = { name: 'code', in: 'path', required: true, schema: { type: 'string' } };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Linklet',
      version: '1.0.0',
      description: 'Self-hosted URL shortener. The legacy endpoint keeps the PHP-era dialect; v1 is the current one.',
    },
    servers: [{ url: options.baseUrl }],
    paths: {
      '/api.php': { get: describe('/api.php'), post: shortenOperation('legacy') },
      '/api/v1/shorten': { get: describe('/api/v1/shorten'), post: shortenOperation('v1') },
      '/{code}': {
        get: {
          operationId: 'resolve',
          summary: 'Follow a short URL',
          parameters: [code],
          responses: redirectResponses,
        },
      },
      '/{code}/': {
        get: {
          operationId: 'resolveSlash',
          summary: 'Follow a v1 short URL',
          parameters: [code],
          responses: redirectResponses,
        },
      },
    },
    components: {
      schemas: {
        ShortenRequest: {
          type: 'object',
          required: ['original_url'],
          properties: {
            original_url: { type: 'string', maxLength: options.maxUrlLength, format: 'uri' },
            custom_code: {
              type: ['string', 'null'],
              // No maxLength: the limit counts code points after NFC, and NFD input is longer.
              description: `1 to ${MAX_CODE_LENGTH} code points after Unicode NFC: Hangul, ASCII letters, digits, _ and -; case-insensitive for ASCII.`,
            },
            expire_duration: { enum: [...EXPIRE_DURATIONS, null, ''], default: DEFAULT_EXPIRE_DURATION },
          },
        },
        LegacySuccess: successOf({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' }, '[^/]$'),
        V1Success: successOf(
          { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' },
          '/$',
        ),
        Error: {
          type: 'object',
          additionalProperties: false,
          required: ['status', 'message'],
          properties: { status: { const: 'error' }, message: { type: 'string', minLength: 1 } },
        },
        ApiDescription: {
          type: 'object',
          required: ['name', 'version', 'endpoints', 'expire_durations', 'default_expire_duration'],
          properties: {
            name: { type: 'string' },
            version: { enum: ['legacy', 'v1'] },
            endpoints: { type: 'array', items: { type: 'object', required: ['method', 'path'] } },
            expire_durations: { type: 'array', items: { enum: [...EXPIRE_DURATIONS] } },
            default_expire_duration: { const: DEFAULT_EXPIRE_DURATION },
          },
        },
      },
    },
  };
}
