import type { ApiCatalogOptions, ApiOperationSpec } from '../api-docs/api-operation.js';
import { error } from '../api-docs/operation-parts.js';
import { keyRequired, storeDown, tooLarge } from '../management/management-answers.js';
import { DELIVERIES_SHOWN, MAX_WEBHOOKS_PER_OWNER } from './webhook-store.js';

const idParameter = { name: 'id', description: 'The webhook’s id, as `GET /api/v1/webhooks` lists it.' };
const noSuchWebhook = error('You have no webhook with this id: a missing one and another owner’s get the same answer.');

/**
 * The webhook routes: any key (an owner's, or the administrator's, told of every link) keeps
 * endpoints of its own; nobody sees another's.
 */
export function webhookOperations(options: ApiCatalogOptions): ApiOperationSpec[] {
  return [
    {
      method: 'POST',
      path: '/api/v1/webhooks',
      operationId: 'createWebhook',
      tag: 'webhooks',
      summary: 'Add a webhook endpoint',
      description: `Events are POSTed to \`url\` as Standard Webhooks (the document's \`webhooks\`), signed with the secret in this answer, which is shown only once. At most ${MAX_WEBHOOKS_PER_OWNER} endpoints a key.`,
      auth: 'required',
      requestBody: { schema: 'WebhookRequest', description: 'The endpoint and its events.' },
      responses: {
        201: {
          description: 'The endpoint was added; `data.secret` is shown only this once.',
          schema: 'WebhookCreated',
        },
        400: error('`url` is missing, not HTTPS, or a private address; or `events` is empty or names no event.'),
        401: keyRequired,
        409: error(`The key has ${MAX_WEBHOOKS_PER_OWNER} endpoints already.`),
        413: tooLarge(options),
        503: storeDown,
      },
    },
    {
      method: 'GET',
      path: '/api/v1/webhooks',
      operationId: 'listWebhooks',
      tag: 'webhooks',
      summary: 'List your webhook endpoints',
      description: 'Your endpoints, oldest first, without their secrets; a disabled one says why.',
      auth: 'required',
      responses: {
        200: { description: 'Your endpoints.', schema: 'WebhookList' },
        401: keyRequired,
        503: storeDown,
      },
    },
    {
      method: 'DELETE',
      path: '/api/v1/webhooks/{id}',
      operationId: 'deleteWebhook',
      tag: 'webhooks',
      summary: 'Remove a webhook endpoint',
      description: 'Nothing more is sent to it; its pending deliveries are dropped.',
      auth: 'required',
      pathParameters: [idParameter],
      responses: {
        200: { description: 'The endpoint was removed.', schema: 'Done' },
        401: keyRequired,
        404: noSuchWebhook,
        503: storeDown,
      },
    },
    {
      method: 'GET',
      path: '/api/v1/webhooks/{id}/deliveries',
      operationId: 'listWebhookDeliveries',
      tag: 'webhooks',
      summary: 'The last deliveries to an endpoint',
      description: `Its last ${DELIVERIES_SHOWN} deliveries, newest first: delivered, pending (with the next attempt) or failed, with the last answer's status and why it failed.`,
      auth: 'required',
      pathParameters: [idParameter],
      responses: {
        200: { description: 'The endpoint and its last deliveries.', schema: 'WebhookDeliveries' },
        401: keyRequired,
        404: noSuchWebhook,
        503: storeDown,
      },
    },
    {
      method: 'POST',
      path: '/api/v1/webhooks/{id}/test',
      operationId: 'testWebhook',
      tag: 'webhooks',
      summary: 'Send a test event',
      description:
        'Queues a `webhook.test` delivery to the endpoint, sent at once; its outcome shows among the last deliveries.',
      auth: 'required',
      pathParameters: [idParameter],
      responses: {
        202: { description: 'The test event was queued.', schema: 'WebhookTestQueued' },
        401: keyRequired,
        404: noSuchWebhook,
        409: error('The endpoint was disabled after failing for a day: delete it and add it again.'),
        503: storeDown,
      },
    },
  ];
}

/** A delivery's request as the OpenAPI document's `webhooks` describe it. */
const deliveryOperation = (summary: string, schema: string) => ({
  post: {
    operationId: `deliver${schema}`,
    tags: ['webhooks'],
    summary,
    description:
      'Signed per Standard Webhooks: `webhook-id` (the same on every attempt: drop repeats), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed with the secret’s base64-decoded bytes). A 2xx answer within 10 s is success; anything else is tried again, first within 10 s, then backing off for more than a day. Redirects are not followed.',
    parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
      name,
      in: 'header',
      required: true,
      schema: { type: 'string' },
    })),
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
    },
    // No key: the receiver checks the signature instead.
    security: [],
    responses: { '2XX': { description: 'Taken.' } },
  },
});

/** The OpenAPI 3.1 `webhooks`: every event an endpoint may be sent. */
export function webhookDeliveries() {
  return {
    'link.created': deliveryOperation('A link was made', 'LinkCreatedEvent'),
    'link.updated': deliveryOperation('A link was changed', 'LinkUpdatedEvent'),
    'link.deleted': deliveryOperation('A link was deleted', 'LinkDeletedEvent'),
    'link.clicked': deliveryOperation('A short URL was followed', 'LinkClickedEvent'),
    'webhook.test': deliveryOperation('A test asked for by the owner', 'WebhookTestEvent'),
  };
}
