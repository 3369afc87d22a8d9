import { formatIsoDate } from '../rules/dates.js';
import type { DeliveryRecord, Webhook } from './webhook-store.js';

const isoOrNull = (at: number | undefined) => (at === undefined ? null : formatIsoDate(at));

/** An endpoint as its owner lists it: never its secret. */
export function toWebhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: [...webhook.events],
    created_at: formatIsoDate(webhook.createdAt),
    disabled: webhook.disabledAt !== undefined,
    disabled_at: isoOrNull(webhook.disabledAt),
    disabled_reason: webhook.disabledReason ?? null,
    failing_since: isoOrNull(webhook.failingSince),
  };
}

/** A delivery as its endpoint's owner reads it. */
export function toDeliveryView(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    type: delivery.type,
    created_at: formatIsoDate(delivery.createdAt),
    state: delivery.state,
    attempts: delivery.attempts,
    last_attempt_at: isoOrNull(delivery.lastAttemptAt),
    last_status: delivery.lastStatus ?? null,
    last_error: delivery.lastError ?? null,
    next_attempt_at: delivery.state === 'pending' ? isoOrNull(delivery.nextAt) : null,
  };
}
