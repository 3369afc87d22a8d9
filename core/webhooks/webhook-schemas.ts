import { answerOf, isoDate, ref, strictObject } from '../api-docs/schema-parts.js';
import { CLICKS_PER_DELIVERY } from './webhook-payloads.js';
import { DELIVERIES_SHOWN, WEBHOOK_EVENTS } from './webhook-store.js';

const events = {
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: { enum: [...WEBHOOK_EVENTS] },
  description: 'What the endpoint is told of.',
};
const nullableDate = { type: ['string', 'null'], pattern: isoDate.pattern };
const webhookProperties = {
  id: { type: 'integer', minimum: 1 },
  url: { type: 'string', format: 'uri' },
  events,
  created_at: isoDate,
};
const shortUrl = { type: 'string', pattern: '/$' };
/** A delivery's body: `{"type", "timestamp", "data"}` as Standard Webhooks shapes it. */
const eventOf = (type: string, data: object, description: string) => ({
  ...strictObject({ type: { const: type }, timestamp: { ...isoDate, description: 'When the event happened.' }, data }),
  description,
});

/**
 * The bodies of `/api/v1/webhooks…` and of the deliveries themselves (the document's
 * `webhooks`), as `webhook-view.ts` and `webhook-payloads.ts` write them.
 */
export const webhookSchemas = {
  WebhookRequest: {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: {
        type: 'string',
        maxLength: 2048,
        description:
          'Where events are POSTed: HTTPS (HTTP too when the server allows private targets); never a private, loopback or link-local address when it blocks them.',
      },
      events,
    },
  },
  WebhookCreated: answerOf(
    strictObject({
      ...webhookProperties,
      secret: {
        type: 'string',
        pattern: '^whsec_[A-Za-z0-9+/]{32,}={0,2}$',
        description: 'The signing secret (Standard Webhooks): shown only in this answer.',
      },
    }),
  ),
  Webhook: strictObject({
    ...webhookProperties,
    disabled: { type: 'boolean', description: 'Disabled after failing for a day; nothing is sent to it.' },
    disabled_at: nullableDate,
    disabled_reason: { type: ['string', 'null'], description: 'Why its last delivery failed, when it was disabled.' },
    failing_since: { ...nullableDate, description: 'Since when every delivery has failed (null: the last succeeded).' },
  }),
  WebhookList: answerOf(strictObject({ webhooks: { type: 'array', items: ref('Webhook') } })),
  WebhookDelivery: strictObject({
    id: { type: 'string', pattern: '^msg_', description: 'The `webhook-id` header, the same on every attempt.' },
    type: { enum: [...WEBHOOK_EVENTS, 'webhook.test'] },
    created_at: isoDate,
    state: { enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer', minimum: 0 },
    last_attempt_at: nullableDate,
    last_status: { type: ['integer', 'null'], description: 'The HTTP status the endpoint last answered.' },
    last_error: { type: ['string', 'null'], description: 'Why the last attempt failed, in words.' },
    next_attempt_at: nullableDate,
  }),
  WebhookDeliveries: answerOf(
    strictObject({
      webhook: ref('Webhook'),
      deliveries: { type: 'array', maxItems: DELIVERIES_SHOWN, items: ref('WebhookDelivery') },
    }),
  ),
  WebhookTestQueued: answerOf(strictObject({ id: { type: 'string', pattern: '^msg_' } })),
  LinkCreatedEvent: eventOf('link.created', ref('Link'), 'A link was made (by any API).'),
  LinkUpdatedEvent: eventOf('link.updated', ref('Link'), 'A link was changed: the link as it is now.'),
  LinkDeletedEvent: eventOf(
    'link.deleted',
    strictObject({ code: { type: 'string', minLength: 1 }, short_url: shortUrl, deleted_at: isoDate }),
    'A link was deleted.',
  ),
  LinkClickedEvent: eventOf(
    'link.clicked',
    strictObject({
      clicks: {
        type: 'array',
        minItems: 1,
        maxItems: CLICKS_PER_DELIVERY,
        description: "The clicks of up to about a second, oldest first: a quiet link's click comes alone.",
        items: strictObject(
          {
            code: { type: 'string', minLength: 1 },
            short_url: shortUrl,
            clicked_at: isoDate,
            referrer: { type: ['string', 'null'], description: "The referrer's host, `direct` when none." },
            country: { type: ['string', 'null'], pattern: '^[A-Z]{2}$' },
            browser: { type: ['string', 'null'] },
            os: { type: ['string', 'null'] },
            device: { type: ['string', 'null'] },
            bot: { type: 'boolean' },
          },
          ['referrer', 'country', 'browser', 'os', 'device', 'bot'],
        ),
      },
    }),
    `Short URLs were followed: one delivery per endpoint carries the clicks of up to a second (at most ${CLICKS_PER_DELIVERY}). Never the visitor's address; a visit that asked not to be tracked (DNT, GPC), or a server keeping no visit details, carries the time alone.`,
  ),
  WebhookTestEvent: eventOf(
    'webhook.test',
    strictObject({ webhook_id: { type: 'integer', minimum: 1 }, url: { type: 'string' } }),
    'Sent when the owner asks for a test.',
  ),
};
