import { type DeliveryRecord, type DeliveryType, eventsOf, type Webhook } from '../../core/webhooks/webhook-store.js';

// The webhook tables have the same columns on SQLite and PostgreSQL: their rows read alike.

/** Finished deliveries kept per endpoint (to show); older ones are removed as new ones finish. */
export const FINISHED_DELIVERIES_KEPT = 100;

export interface WebhookRow {
  id: number;
  owner_id: number | null;
  url: string;
  events: string;
  secret: string;
  created_at: number;
  failing_since: number | null;
  disabled_at: number | null;
  disabled_reason: string | null;
}
export interface DeliveryRow {
  id: string;
  webhook_id: number;
  type: string;
  created_at: number;
  state: DeliveryRecord['state'];
  attempts: number;
  next_at: number | null;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
}

/** A stored endpoint (pg hands bigint back as a string: every number is converted). */
export function webhookFromRow(row: WebhookRow): Webhook {
  const webhook: Webhook = {
    id: Number(row.id),
    ownerId: row.owner_id === null ? null : Number(row.owner_id),
    url: row.url,
    events: eventsOf(row.events),
    secret: row.secret,
    createdAt: Number(row.created_at),
  };
  if (row.failing_since !== null) webhook.failingSince = Number(row.failing_since);
  if (row.disabled_at !== null) webhook.disabledAt = Number(row.disabled_at);
  if (row.disabled_reason !== null) webhook.disabledReason = row.disabled_reason;
  return webhook;
}

/** A stored delivery as its owner reads it (same columns on PostgreSQL). */
export function deliveryFromRow(row: DeliveryRow): DeliveryRecord {
  const record: DeliveryRecord = {
    id: row.id,
    webhookId: Number(row.webhook_id),
    type: row.type as DeliveryType,
    createdAt: Number(row.created_at),
    state: row.state,
    attempts: Number(row.attempts),
  };
  if (row.state === 'pending' && row.next_at !== null) record.nextAt = Number(row.next_at);
  if (row.last_attempt_at !== null) record.lastAttemptAt = Number(row.last_attempt_at);
  if (row.last_status !== null) record.lastStatus = Number(row.last_status);
  if (row.last_error !== null) record.lastError = row.last_error;
  return record;
}

export const WEBHOOK_COLUMNS =
  'id, owner_id, url, events, secret, created_at, failing_since, disabled_at, disabled_reason';
export const DELIVERY_COLUMNS =
  'id, webhook_id, type, created_at, state, attempts, next_at, last_attempt_at, last_status, last_error';
