import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS } from '../rules/expiry.js';

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

/** What `GET /health` answers. */
export const HEALTH_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { const: 'ok' } },
};

/** The API description (`GET /api.php`, `GET /api/v1/shorten`, `GET /` for JSON). */
export const API_DESCRIPTION_SCHEMA = {
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
};

/** This document itself, loosely: its own schema is OpenAPI's. */
export const OPENAPI_DOCUMENT_SCHEMA = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.' },
    info: { type: 'object' },
    paths: { type: 'object' },
  },
};
