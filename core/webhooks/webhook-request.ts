import { invalid } from '../http/errors.js';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook-store.js';
import { parseWebhookUrl } from './webhook-url.js';

/** What `POST /api/v1/webhooks` asks for, checked. */
export interface WebhookRequest {
  url: string;
  events: WebhookEvent[];
}

const EVENT_LIST = WEBHOOK_EVENTS.join(', ');

/** The body of `POST /api/v1/webhooks`: `url` (see `parseWebhookUrl`) and one or more known `events`. */
export function parseWebhookRequest(body: unknown, blockPrivateTargets: boolean): WebhookRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('The body must be a JSON object: {"url": "https://…", "events": ["link.clicked"]}.');
  }
  const { url, events } = body as { url?: unknown; events?: unknown };
  const parsedUrl = parseWebhookUrl(url, blockPrivateTargets);
  if (!Array.isArray(events) || events.length === 0) {
    throw invalid(`events is required: a list of one or more of ${EVENT_LIST}.`);
  }
  const chosen: WebhookEvent[] = [];
  for (const event of events) {
    if (typeof event !== 'string' || !(WEBHOOK_EVENTS as readonly string[]).includes(event)) {
      throw invalid(`events holds ${JSON.stringify(event)}, which is no event; use ${EVENT_LIST}.`);
    }
    if (!chosen.includes(event as WebhookEvent)) chosen.push(event as WebhookEvent);
  }
  return { url: parsedUrl, events: chosen };
}
