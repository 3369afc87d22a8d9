import type pg from 'pg';
import {
  type ClaimedDelivery,
  type DeliveryOutcome,
  DISABLE_AFTER_MS,
  eventsText,
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
import { withReconnect } from './postgres-errors.js';

type Row = Record<string, unknown>;

/**
 * Webhooks on PostgreSQL. A claim takes due rows `FOR UPDATE SKIP LOCKED` and moves them by the
 * lease in the same statement, so instances sharing the database each claim other deliveries;
 * one whose sender died is due again when its lease ends, under the same id. Reads are retried
 * on a fresh connection; writes are not.
 */
export function createPostgresWebhooks(pool: pg.Pool, prefix: string): WebhookStore {
  const webhooks = `${prefix}webhooks`;
  const deliveries = `${prefix}webhook_deliveries`;
  const read = (text: string, values: unknown[]) => withReconnect(() => pool.query(text, values));
  const inTransaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };

  /** One attempt's record, within the transaction of its batch. */
  const finishOne = async (client: pg.PoolClient, id: string, webhookId: number, outcome: DeliveryOutcome) => {
    if (outcome.ok) {
      await client.query(
        `UPDATE ${deliveries} SET state = 'delivered', next_at = NULL, last_attempt_at = $2, last_status = $3,
           last_error = NULL WHERE id = $1`,
        [id, outcome.at, outcome.status],
      );
      await client.query(`UPDATE ${webhooks} SET failing_since = NULL WHERE id = $1`, [webhookId]);
    } else {
      const retryAt = outcome.retryAt ?? null;
      await client.query(
        `UPDATE ${deliveries} SET state = CASE WHEN $5::bigint IS NULL THEN 'failed' ELSE 'pending' END,
           next_at = $5, last_attempt_at = $2, last_status = $3, last_error = $4 WHERE id = $1`,
        [id, outcome.at, outcome.status ?? null, outcome.error, retryAt],
      );
      await client.query(
        `UPDATE ${webhooks} SET failing_since = coalesce(failing_since, $2),
           disabled_at = CASE WHEN disabled_at IS NULL AND $2 - coalesce(failing_since, $2) >= $4 THEN $2 ELSE disabled_at END,
           disabled_reason = CASE WHEN disabled_at IS NULL AND $2 - coalesce(failing_since, $2) >= $4 THEN $3 ELSE disabled_reason END
         WHERE id = $1`,
        [webhookId, outcome.at, outcome.error, DISABLE_AFTER_MS],
      );
    }
  };

  return {
    async createWebhook(webhook) {
      const { rows } = await pool.query(
        `INSERT INTO ${webhooks} (owner_id, url, events, secret, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [webhook.ownerId, webhook.url, eventsText(webhook.events), webhook.secret, webhook.createdAt],
      );
      return { ...webhook, id: Number((rows[0] as Row).id), events: [...webhook.events] };
    },
    async listWebhooks(owner) {
      const { rows } = await read(
        `SELECT ${WEBHOOK_COLUMNS} FROM ${webhooks} WHERE owner_id IS NOT DISTINCT FROM $1 ORDER BY id`,
        [owner],
      );
      return rows.map((row) => webhookFromRow(row as WebhookRow));
    },
    async findWebhook(id, owner) {
      const { rows } = await read(
        `SELECT ${WEBHOOK_COLUMNS} FROM ${webhooks} WHERE id = $1 AND owner_id IS NOT DISTINCT FROM $2`,
        [id, owner],
      );
      return rows[0] && webhookFromRow(rows[0] as WebhookRow);
    },
    async deleteWebhook(id, owner) {
      const { rowCount } = await pool.query(
        `WITH gone AS (DELETE FROM ${webhooks} WHERE id = $1 AND owner_id IS NOT DISTINCT FROM $2 RETURNING id),
           dropped AS (DELETE FROM ${deliveries} WHERE webhook_id IN (SELECT id FROM gone))
         SELECT id FROM gone`,
        [id, owner],
      );
      return (rowCount ?? 0) > 0;
    },
    async activeWebhooks() {
      const { rows } = await read(`SELECT ${WEBHOOK_COLUMNS} FROM ${webhooks} WHERE disabled_at IS NULL`, []);
      return rows.map((row) => webhookFromRow(row as WebhookRow));
    },
    async enqueueDeliveries(batch) {
      if (batch.length === 0) return;
      await pool.query(
        `INSERT INTO ${deliveries} (id, webhook_id, type, body, created_at, next_at)
         SELECT d.id, d.webhook_id, d.type, d.body, d.created_at, d.created_at
         FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::bigint[])
           WITH ORDINALITY AS d (id, webhook_id, type, body, created_at, n)
         WHERE EXISTS (SELECT 1 FROM ${webhooks} w WHERE w.id = d.webhook_id)
         ORDER BY d.n
         ON CONFLICT (id) DO NOTHING`,
        [
          batch.map((d) => d.id),
          batch.map((d) => d.webhookId),
          batch.map((d) => d.type),
          batch.map((d) => d.body),
          batch.map((d) => d.createdAt),
        ],
      );
    },
    async claimDeliveries(now, limit, leaseMs) {
      const { rows } = await pool.query(
        `WITH due AS (
           SELECT d.seq FROM ${deliveries} d JOIN ${webhooks} w ON w.id = d.webhook_id
           WHERE d.state = 'pending' AND d.next_at <= $1 AND w.disabled_at IS NULL
           ORDER BY d.next_at LIMIT $2
           FOR UPDATE OF d SKIP LOCKED)
         UPDATE ${deliveries} d SET attempts = d.attempts + 1, next_at = $3
         FROM due, ${webhooks} w
         WHERE d.seq = due.seq AND w.id = d.webhook_id
         RETURNING d.id, d.webhook_id, w.url, w.secret, d.body, d.attempts - 1 AS attempts`,
        [now, limit, now + leaseMs],
      );
      return rows.map(
        (row): ClaimedDelivery => ({
          id: row.id,
          webhookId: Number(row.webhook_id),
          url: row.url,
          secret: row.secret,
          body: row.body,
          attempts: Number(row.attempts),
        }),
      );
    },
    async finishDeliveries(finished) {
      if (finished.length === 0) return;
      await inTransaction(async (client) => {
        // A record lost to a crash only sends its delivery again (at least once): no wait for the disk.
        await client.query('SET LOCAL synchronous_commit = off');
        for (const { id, webhookId, outcome } of finished) await finishOne(client, id, webhookId, outcome);
        for (const webhookId of new Set(finished.map((one) => one.webhookId))) {
          await client.query(
            `DELETE FROM ${deliveries} WHERE webhook_id = $1 AND state <> 'pending' AND seq <= (
               SELECT seq FROM ${deliveries} WHERE webhook_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2)`,
            [webhookId, FINISHED_DELIVERIES_KEPT],
          );
        }
      });
    },
    async listDeliveries(webhookId, owner, limit) {
      const { rows } = await read(
        `SELECT ${DELIVERY_COLUMNS.split(', ')
          .map((column) => `d.${column}`)
          .join(', ')}
         FROM ${deliveries} d JOIN ${webhooks} w ON w.id = d.webhook_id
         WHERE d.webhook_id = $1 AND w.owner_id IS NOT DISTINCT FROM $2 ORDER BY d.seq DESC LIMIT $3`,
        [webhookId, owner, limit],
      );
      return rows.map((row) => deliveryFromRow(row as DeliveryRow));
    },
  };
}
