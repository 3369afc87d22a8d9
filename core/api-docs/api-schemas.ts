import { EXPORT_VERSION } from '../management/porting/export-links.js';
import { IMPORT_STATUSES, MAX_LISTED_ROWS } from '../management/porting/import-links.js';
import { IMPORT_FORMATS } from '../management/porting/import-row.js';
import { PASSWORD_CREATE_SCHEMA } from '../passwords/password-schemas.js';
import { MAX_CODE_LENGTH } from '../rules/code.js';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS } from '../rules/expiry.js';
import type { ApiCatalogOptions } from './api-operation.js';
import { linkLabelRequests, managementSchemas } from './management-schemas.js';

const ISO_DATE = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$';
const LEGACY_DATE = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';

/** A success envelope whose `data` is the link record of one dialect (v1: with the title and tags given). */
const successOf = (dateSchema: object, shortUrlPattern: string, labels: object = {}) => ({
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
        ...labels,
      },
    },
  },
});

const strings = { type: 'array', items: { type: 'string' } };

/** One entry of the API description's `endpoints`: see `ApiOperationSpec.describe`. */
const describedEndpoint = {
  type: 'object',
  additionalProperties: false,
  required: ['method', 'path', 'summary', 'description', 'statuses'],
  properties: {
    method: { type: 'string' },
    path: { type: 'string' },
    summary: { type: 'string' },
    description: { type: 'string' },
    statuses: { type: 'array', items: { type: 'integer' } },
    success_status: { type: 'integer' },
    short_url: { type: 'string' },
    expiration_date_format: { type: 'string' },
    parameters: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'type', 'required', 'rules'],
        properties: {
          name: { type: 'string' },
          type: { type: 'string' },
          required: { type: 'boolean' },
          rules: { type: 'string' },
          values: strings,
          default: { type: 'string' },
        },
      },
    },
  },
};

/**
 * The JSON Schemas (2020-12) of every body the API takes or gives, by name. Strict
 * (`additionalProperties: false`) so a test that checks real responses against them catches any
 * field the handler adds or drops. A new endpoint adds its bodies here.
 */
export function apiSchemas(options: ApiCatalogOptions) {
  const shortenRequest = {
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
  };
  return {
    ShortenRequest: shortenRequest,
    // v1 only: the legacy dialect takes exactly the fields the interface document lists.
    V1ShortenRequest: {
      ...shortenRequest,
      properties: { ...shortenRequest.properties, password: PASSWORD_CREATE_SCHEMA, ...linkLabelRequests },
    },
    LegacySuccess: successOf({ type: 'string', pattern: LEGACY_DATE }, '[^/]$'),
    V1Success: successOf({ type: 'string', pattern: ISO_DATE }, '/$', {
      title: { type: 'string', description: 'The title given (only when one was).' },
      tags: {
        type: 'array',
        items: { type: 'string' },
        description: 'The tags given, lower case (only when some were).',
      },
    }),
    Error: {
      type: 'object',
      additionalProperties: false,
      required: ['status', 'message'],
      properties: { status: { const: 'error' }, message: { type: 'string', minLength: 1 } },
    },
    Health: {
      type: 'object',
      additionalProperties: false,
      required: ['status'],
      properties: { status: { const: 'ok' } },
    },
    ApiDescription: {
      type: 'object',
      additionalProperties: false,
      required: [
        'name',
        'description',
        'endpoint',
        'version',
        'endpoints',
        'expire_durations',
        'default_expire_duration',
        'limits',
        'errors',
      ],
      properties: {
        name: { type: 'string' },
        description: { type: 'string' },
        endpoint: { type: 'string', description: 'The endpoint that answered.' },
        version: { enum: ['legacy', 'v1'] },
        endpoints: { type: 'array', items: describedEndpoint },
        expire_durations: { type: 'array', items: { enum: [...EXPIRE_DURATIONS] } },
        default_expire_duration: { const: DEFAULT_EXPIRE_DURATION },
        limits: {
          type: 'object',
          additionalProperties: false,
          required: ['max_url_length', 'max_code_length', 'max_body_bytes'],
          properties: {
            max_url_length: { type: 'integer' },
            max_code_length: { type: 'integer' },
            max_body_bytes: { type: 'integer' },
          },
        },
        errors: {
          type: 'object',
          description: 'What each error status means, by status.',
          propertyNames: { pattern: '^[45]\\d\\d$' },
          additionalProperties: { type: 'string' },
        },
      },
    },
    ...managementSchemas(options),
    LinkExport: {
      type: 'object',
      additionalProperties: false,
      required: ['version', 'exported_at', 'links'],
      properties: {
        version: { const: EXPORT_VERSION },
        exported_at: { type: 'string', pattern: ISO_DATE },
        links: { type: 'array', items: { $ref: '#/components/schemas/Link' } },
      },
    },
    ImportFile: {
      type: ['object', 'array'],
      description:
        "A JSON export: Linklet's `{version: 1, links}`, a Sink export page `{links}`, a Kutt listing `{data}`, or a bare array of their links.",
    },
    ImportReport: {
      type: 'object',
      additionalProperties: false,
      required: ['status', 'message', 'data'],
      properties: {
        status: { const: 'success' },
        message: { type: 'string' },
        data: {
          type: 'object',
          additionalProperties: false,
          required: ['format', ...IMPORT_STATUSES, 'results', 'results_omitted'],
          properties: {
            format: { enum: Object.keys(IMPORT_FORMATS) },
            ...Object.fromEntries(IMPORT_STATUSES.map((status) => [status, { type: 'integer', minimum: 0 }])),
            results: {
              type: 'array',
              maxItems: 2 * MAX_LISTED_ROWS,
              description: `Every row of the file's first ${MAX_LISTED_ROWS}, then only rows not created, up to ${MAX_LISTED_ROWS} of those in all; in file order.`,
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['row', 'code', 'status', 'message'],
                properties: {
                  row: { type: 'integer', minimum: 1, description: "The link's place in the file, from 1." },
                  code: { type: 'string' },
                  status: { enum: [...IMPORT_STATUSES] },
                  message: { type: 'string', minLength: 1 },
                },
              },
            },
            results_omitted: {
              type: 'integer',
              minimum: 0,
              description: 'How many rows are counted but not listed in `results`.',
            },
            retry_after_seconds: {
              type: 'integer',
              minimum: 1,
              description:
                "Present when rows were left out over the server's import budget (skipped, saying so): when to send the file again.",
            },
          },
        },
      },
    },
    OpenApiDocument: {
      type: 'object',
      required: ['openapi', 'info', 'paths'],
      properties: {
        openapi: { type: 'string', pattern: '^3\\.1\\.' },
        info: { type: 'object' },
        paths: { type: 'object' },
      },
    },
  };
}
