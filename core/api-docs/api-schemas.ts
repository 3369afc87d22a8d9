import { shlinkSchemas } from '../compat/shlink/shlink-schemas.js';
import { yourlsSchemas } from '../compat/yourls/yourls-schemas.js';
import { claimSchemas } from '../management/claims/claim-schemas.js';
import { managementSchemas } from '../management/management-schemas.js';
import { portingSchemas } from '../management/porting/porting-schemas.js';
import { shortenSchemas } from '../shorten/shorten-schemas.js';
import { API_DESCRIPTION_SCHEMA, HEALTH_SCHEMA, OPENAPI_DOCUMENT_SCHEMA } from '../site/site-schemas.js';
import { webhookSchemas } from '../webhooks/webhook-schemas.js';
import type { ApiCatalogOptions } from './api-operation.js';

/**
 * The JSON Schemas (2020-12) of every body the API takes or gives, by name, as the features
 * declare them. Strict (`additionalProperties: false`) so a test that checks real responses
 * against them catches any field the handler adds or drops.
 */
export function apiSchemas(options: ApiCatalogOptions) {
  return {
    ...shortenSchemas(options),
    Error: {
      type: 'object',
      additionalProperties: false,
      required: ['status', 'message'],
      properties: { status: { const: 'error' }, message: { type: 'string', minLength: 1 } },
    },
    Health: HEALTH_SCHEMA,
    ApiDescription: API_DESCRIPTION_SCHEMA,
    ...managementSchemas(options),
    ...portingSchemas,
    ...claimSchemas,
    ...(options.webhooks && webhookSchemas),
    ...shlinkSchemas,
    OpenApiDocument: OPENAPI_DOCUMENT_SCHEMA,
    ...yourlsSchemas,
  };
}
