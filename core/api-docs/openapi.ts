import { shlinkMethods } from '../compat/shlink/shlink-endpoints.js';
import { API_HEADERS, API_METHODS, YOURLS_HEADERS } from '../http/middleware/cors.js';
import { compatDialectOf, isApiPath } from '../http/paths.js';
import { webhookDeliveries } from '../webhooks/webhook-operations.js';
import { listApiOperations } from './api-catalog.js';
import { API_TAGS, type ApiCatalogOptions, type ApiOperationSpec, type ApiResponseSpec } from './api-operation.js';
import { COMMON_RESPONSES, type OperationResponse, responsesOf } from './api-responses.js';
import { apiSchemas } from './api-schemas.js';

const KEY_SCHEMES = [{ ApiKeyHeader: [] }, { BearerKey: [] }];
const SECURITY_OF_AUTH = {
  none: [],
  optional: [{}, ...KEY_SCHEMES],
  required: KEY_SCHEMES,
  signature: [{}, { YourlsSignature: [] }, ...KEY_SCHEMES],
} satisfies Record<ApiOperationSpec['auth'], object[]>;

/** The methods a path's preflight allows, as the header lists them: Shlink's paths take PUT too. */
const preflightMethodsOf = (path: string) =>
  (compatDialectOf(path) === 'shlink' ? shlinkMethods() : API_METHODS).join(',');
/** The request headers a path's preflight allows. */
const preflightHeadersOf = (path: string) =>
  (compatDialectOf(path) === 'yourls' ? YOURLS_HEADERS : API_HEADERS).join(', ');

/** A response object: the JSON body (and the HTML page, for browsers), unless `bodyless` (HEAD). */
function responseObject(spec: ApiResponseSpec, bodyless = false) {
  const content: Record<string, { schema: object }> = {};
  if (spec.schema !== undefined)
    content[spec.mediaType ?? 'application/json'] = { schema: { $ref: `#/components/schemas/${spec.schema}` } };
  if (spec.page) content['text/html'] = { schema: { type: 'string', description: 'A small error page.' } };
  for (const [mediaType, schema] of Object.entries(spec.alternatives ?? {})) content[mediaType] = { schema };
  const headers = Object.entries(spec.headers ?? {}).map(([name, description]) => [
    name,
    { description, schema: { type: 'string' } },
  ]);
  return {
    description: spec.description,
    ...(headers.length > 0 && { headers: Object.fromEntries(headers) }),
    ...(!bodyless && Object.keys(content).length > 0 && { content }),
  };
}

/** An operation's responses: shared ones by reference, its own inline; a HEAD's without bodies. */
function responsesObject(responses: OperationResponse[], bodyless: boolean) {
  return Object.fromEntries(
    responses.map(({ status, spec, shared }) => [
      String(status),
      shared !== undefined && !bodyless ? { $ref: `#/components/responses/${shared}` } : responseObject(spec, bodyless),
    ]),
  );
}

function operationObject(operation: ApiOperationSpec, head = false) {
  return {
    operationId: head ? `${operation.operationId}Head` : operation.operationId,
    tags: [operation.tag],
    summary: head ? `${operation.summary} (headers only)` : operation.summary,
    description: head ? `The headers of \`GET ${operation.path}\`, without its body.` : operation.description,
    ...(operation.queryParameters && {
      parameters: operation.queryParameters.map(({ name, description, schema }) => ({
        name,
        in: 'query',
        required: false,
        description,
        schema,
      })),
    }),
    security: SECURITY_OF_AUTH[operation.auth],
    ...(operation.requestBody && {
      requestBody: {
        required: true,
        description: operation.requestBody.description,
        content: {
          ...(operation.requestBody.schema !== undefined && {
            'application/json': { schema: { $ref: `#/components/schemas/${operation.requestBody.schema}` } },
          }),
          ...Object.fromEntries(
            Object.entries(operation.requestBody.alternatives ?? {}).map(([mediaType, schema]) => [
              mediaType,
              { schema },
            ]),
          ),
        },
      },
    }),
    responses: responsesObject(responsesOf(operation), head),
  };
}

/** The CORS preflight every `/api` path answers, for any origin. */
function preflightOperation(path: string, operationId: string, errorDocument?: ApiOperationSpec['errorDocument']) {
  return {
    operationId: `${operationId}Preflight`,
    tags: ['about'],
    summary: 'CORS preflight',
    description: `Lets a page on any origin call \`${path}\`. Never rate limited.`,
    security: [],
    responses: responsesObject(
      responsesOf({
        auth: 'none',
        rateLimited: false,
        errorDocument,
        responses: {
          204: {
            description: 'The request may be made from any origin.',
            headers: {
              'Access-Control-Allow-Origin': '`*`.',
              'Access-Control-Allow-Methods': `\`${preflightMethodsOf(path)}\`.`,
              'Access-Control-Allow-Headers': `\`${preflightHeadersOf(path)}\`.`,
              'Access-Control-Max-Age': 'Seconds the answer may be cached.',
            },
          },
        },
      }),
      false,
    ),
  };
}

/**
 * The OpenAPI 3.1 document served at `/api/v1/openapi.json`, built from the route catalog
 * (`listApiOperations`) that the API description is built from too. Every `GET` has its `HEAD`,
 * every `/api` path its `OPTIONS`, and every operation the answers any request can get. A test
 * checks real responses against its strict schemas, and a fuzzer checks thousands more.
 */
export function createOpenApiDocument(options: ApiCatalogOptions) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of listApiOperations(options)) {
    const item = paths[operation.path] ?? {};
    paths[operation.path] = item;
    if (operation.pathParameters) {
      item.parameters = operation.pathParameters.map(({ name, description }) => ({
        name,
        in: 'path',
        required: true,
        description,
        schema: { type: 'string' },
      }));
    }
    item[operation.method.toLowerCase()] = operationObject(operation);
    if (operation.method === 'GET') item.head = operationObject(operation, true);
    if (isApiPath(operation.path) && item.options === undefined) {
      item.options = preflightOperation(operation.path, operation.operationId, operation.errorDocument);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Linklet',
      version: '1.0.0',
      description:
        'Self-hosted URL shortener. The legacy endpoint keeps the PHP-era dialect; v1 is the current one. Every error is `{"status":"error","message":…}`; every response carries `Referrer-Policy: no-referrer`, and every response but a redirect (which has no body) `X-Content-Type-Options: nosniff`, a `Content-Security-Policy` and `X-Request-Id` (a redirect carries `X-Request-Id` only when the request sent one). An API path answers a request that sends `Origin` with `Access-Control-Allow-Origin: *` and `Access-Control-Expose-Headers: Location, Retry-After` (a request without `Origin` gets neither); a cacheable `GET` says `Vary: Origin`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.baseUrl, description: 'This server.' }],
    tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    paths,
    ...(options.webhooks && { webhooks: webhookDeliveries() }),
    components: {
      schemas: apiSchemas(options),
      responses: Object.fromEntries(
        Object.entries(COMMON_RESPONSES).map(([name, { status: _, ...spec }]) => [name, responseObject(spec)]),
      ),
      securitySchemes: {
        ApiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'The key, when the server sets `API_KEY`.',
        },
        BearerKey: { type: 'http', scheme: 'bearer', description: 'The same key as `Authorization: Bearer <key>`.' },
        YourlsSignature: {
          type: 'apiKey',
          in: 'query',
          name: 'signature',
          description: "YOURLS's API only: a Linklet API key as `signature` (in the query or the form).",
        },
      },
    },
  };
}
