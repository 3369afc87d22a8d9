import type { ApiOperationSpec } from '../api-docs/api-operation.js';
import { describeOperation, ERROR } from '../api-docs/operation-parts.js';

/** The site's root (web app or description), its assets and the OpenAPI document. */
export function siteOperations(): ApiOperationSpec[] {
  return [
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
        'The web app’s scripts, styles and install icons. Names carry a hash of the content, so each is cached for good (`Cache-Control: public, max-age=31536000, immutable`).',
      auth: 'none',
      pathParameters: [{ name: 'file', description: 'The file name, as the page links it.' }],
      responses: {
        200: {
          description: 'The file.',
          alternatives: {
            'text/javascript': { type: 'string', description: 'A script of the web app.' },
            'text/css': { type: 'string', description: 'A stylesheet of the web app.' },
            'image/png': {
              type: 'string',
              format: 'binary',
              description: 'An icon of the web app, as its manifest names it.',
            },
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
  ];
}

/** For load balancers and supervisors. */
export function serviceOperations(): ApiOperationSpec[] {
  return [
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
