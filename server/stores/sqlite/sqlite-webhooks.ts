import type Database from 'better-sqlite3';
import {
  type ClaimedDelivery,
  type DeliveryOutcome,
  DISABLE_AFTER_MS,
  eventsText,
  type FinishedDelivery,
  type NewDelivery,
  type WebhookStore,
} from '../../../core/webhooks/webhook-store.js';
import {
  DELIVERY_COLUMNS,
  type DeliveryRow,
  deliveryFromRow,
  FINISHED_DELIVERIES_KEPT,
  WEBHOOK_COLUMNS,
  type WebhookRow,
  webhookFromRow,
} from '../webhook-rows.js';

/** How long the sender's claim waits for another connection's write lock (it tries again each second). */
const CLAIM_BUSY_TIMEOUT_MS = 50;

/**
 * Webhooks on the main connection of a Linklet SQLite database. A claim is one `UPDATE …
 * RETURNING`, atomic under SQLite's write lock, so processes sharing the file (`WORKERS`) never
 * claim the same delivery at once. The sender asks every second: a read of the due index answers
 * an empty queue without a write, and a claim waits only briefly for a lock another connection
 * holds (better-sqlite3 waits on the event loop's thread: redirects must not wait with it).
 */
export function createSqliteWebhooks(db: Database.Database, busyTimeoutMs: number): WebhookStore {
  const insert = db.prepare(
    'INSERT INTO webhooks (owner_id, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
  );
  const byOwner = db.prepare<[number | null], WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE owner_id IS ? ORDER BY id`,
  );
  const one = db.prepare<[number, number | null], WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ? AND owner_id IS ?`,
  );
  const active = db.prepare<[], WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE disabled_at IS NULL`);
  const removeWebhook = db.prepare('DELETE FROM webhooks WHERE id = ? AND owner_id IS ?');
  const removeDeliveries = db.prepare('DELETE FROM webhook_deliveries WHERE webhook_id = ?');
  const enqueue = db.prepare(
    `INSERT INTO webhook_deliveries (id, webhook_id, type, body, created_at, next_at)
     SELECT @id, @webhookId, @type, @body, @createdAt, @createdAt WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = @webhookId)
     ON CONFLICT (id) DO NOTHING`,
  );
  const claim = db.prepare<{ now: number; limit: number; until: number }, ClaimedDelivery & { webhook_id: number }>(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, next_at = @until
     WHERE seq IN (
       SELECT d.seq FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.state = 'pending' AND d.next_at <= @now AND w.disabled_at IS NULL
       ORDER BY d.next_at LIMIT @limit)
     RETURNING id, webhook_id, body, attempts - 1 AS attempts`,
  );
  const anyDue = db
    .prepare<[number]>("SELECT 1 FROM webhook_deliveries WHERE state = 'pending' AND next_at <= ? LIMIT 1")
    .pluck();
  const endpoint = db.prepare<[number], { url: string; secret: string }>(
    'SELECT url, secret FROM webhooks WHERE id = ?',
  );
  const delivered = db.prepare(
    `UPDATE webhook_deliveries SET state = 'delivered', next_at = NULL, last_attempt_at = @at, last_status = @status,
       last_error = NULL WHERE id = @id`,
  );
  const failed = db.prepare(
    `UPDATE webhook_deliveries SET state = CASE WHEN @retryAt IS NULL THEN 'failed' ELSE 'pending' END,
       next_at = @retryAt, last_attempt_at = @at, last_status = @status, last_error = @error WHERE id = @id`,
  );
  const healthy = db.prepare('UPDATE webhooks SET failing_since = NULL WHERE id = ?');
  const failing = db.prepare(
    `UPDATE webhooks SET failing_since = coalesce(failing_since, @at),
       disabled_at = CASE WHEN disabled_at IS NULL AND @at - coalesce(failing_since, @at) >= @after THEN @at ELSE disabled_at END,
       disabled_reason = CASE WHEN disabled_at IS NULL AND @at - coalesce(failing_since, @at) >= @after THEN @error ELSE disabled_reason END
     WHERE id = @id`,
  );
  const prune = db.prepare(
    `DELETE FROM webhook_deliveries WHERE webhook_id = @webhookId AND state <> 'pending' AND seq <= (
       SELECT seq FROM webhook_deliveries WHERE webhook_id = @webhookId ORDER BY seq DESC LIMIT 1 OFFSET @kept)`,
  );
  const lastDeliveries = db.prepare<[number, number], DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq DESC LIMIT ?`,
  );

  const enqueueAll = db.transaction((deliveries: NewDelivery[]) => {
    for (const delivery of deliveries) enqueue.run(delivery);
  });
  const claimDue = db.transaction((now: number, limit: number, until: number): ClaimedDelivery[] =>
    claim.all({ now, limit, until }).map((row) => {
      const target = endpoint.get(row.webhook_id) as { url: string; secret: string };
      return {
        id: row.id,
        webhookId: row.webhook_id,
        url: target.url,
        secret: target.secret,
        body: row.body,
        attempts: row.attempts,
      };
    }),
  );

  const removeAll = db.transaction((id: number, owner: number | null): boolean => {
    if (removeWebhook.run(id, owner).changes === 0) return false;
    removeDeliveries.run(id);
    return true;
  });
  const finish = (id: string, webhookId: number, outcome: DeliveryOutcome) => {
    if (outcome.ok) {
      delivered.run({ id, at: outcome.at, status: outcome.status });
      healthy.run(webhookId);
    } else {
      const { at, error } = outcome;
      failed.run({ id, at, status: outcome.status ?? null, error, retryAt: outcome.retryAt ?? null });
      failing.run({ id: webhookId, at, error, after: DISABLE_AFTER_MS });
    }
  };
  const finishAll = db.transaction((finished: FinishedDelivery[]) => {
    for (const { id, webhookId, outcome } of finished) finish(id, webhookId, outcome);
    for (const webhookId of new Set(finished.map((one) => one.webhookId))) {
      prune.run({ webhookId, kept: FINISHED_DELIVERIES_KEPT });
    }
  });

  return {
    async createWebhook(webhook) {
      const { id } = insert.get(
        webhook.ownerId,
        webhook.url,
        eventsText(webhook.events),
        webhook.secret,
        webhook.createdAt,
      ) as {
        id: number;
      };
      return { ...webhook, id, events: [...webhook.events] };
    },
    async listWebhooks(owner) {
      return byOwner.all(owner).map(webhookFromRow);
    },
    async findWebhook(id, owner) {
      const row = one.get(id, owner);
      return row && webhookFromRow(row);
    },
    async deleteWebhook(id, owner) {
      return removeAll.immediate(id, owner);
    },
    async activeWebhooks() {
      return active.all().map(webhookFromRow);
    },
    async enqueueDeliveries(deliveries) {
      if (deliveries.length > 0) enqueueAll.immediate(deliveries);
    },
    async claimDeliveries(now, limit, leaseMs) {
      if (anyDue.get(now) === undefined) return [];
      // Nor is a claim flushed: one lost is due again when its lease would have ended anyway.
      db.exec(`PRAGMA busy_timeout = ${CLAIM_BUSY_TIMEOUT_MS}`);
      db.exec('PRAGMA synchronous = NORMAL');
      try {
        return claimDue.immediate(now, limit, now + leaseMs);
      } finally {
        db.exec('PRAGMA synchronous = FULL');
        db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      }
    },
    async finishDeliveries(finished) {
      if (finished.length === 0) return;
      // Not flushed to disk at each commit: a record lost to a power cut only sends its
      // delivery again (at least once); the queue itself is written with the full flush.
      db.exec('PRAGMA synchronous = NORMAL');
      try {
        finishAll.immediate(finished);
      } finally {
        db.exec('PRAGMA synchronous = FULL');
      }
    },
    async listDeliveries(webhookId, owner, limit) {
      if (one.get(webhookId, owner) === undefined) return [];
      return lastDeliveries.all(webhookId, limit).map(deliveryFromRow);
    },
  };
}
