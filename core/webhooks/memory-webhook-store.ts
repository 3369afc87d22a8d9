import {
  type ClaimedDelivery,
  type DeliveryOutcome,
  type DeliveryRecord,
  DISABLE_AFTER_MS,
  type NewDelivery,
  type Webhook,
  type WebhookOwner,
  type WebhookStore,
} from './webhook-store.js';

interface QueuedDelivery extends DeliveryRecord {
  body: string;
  /** Due at (`nextAt` while pending; a claim moves it by its lease). */
  dueAt: number;
}

/**
 * Webhooks in this process's memory: for tests and the handler run without a server. The
 * server's SQL stores keep the same queue durably.
 */
export function createMemoryWebhookStore(): WebhookStore {
  const webhooks = new Map<number, Webhook>();
  const deliveries = new Map<string, QueuedDelivery>();
  let lastId = 0;
  const owned = (id: number, owner: WebhookOwner) => {
    const found = webhooks.get(id);
    return found !== undefined && found.ownerId === owner ? found : undefined;
  };
  const copy = (webhook: Webhook): Webhook => ({ ...webhook, events: [...webhook.events] });
  const record = ({ body: _body, dueAt: _dueAt, ...rest }: QueuedDelivery): DeliveryRecord => ({ ...rest });

  const finish = (id: string, webhookId: number, outcome: DeliveryOutcome) => {
    const delivery = deliveries.get(id);
    const webhook = webhooks.get(webhookId);
    if (delivery) {
      delivery.lastAttemptAt = outcome.at;
      if (outcome.status === undefined) delete delivery.lastStatus;
      else delivery.lastStatus = outcome.status;
      if (outcome.ok) {
        delivery.state = 'delivered';
        delete delivery.lastError;
        delete delivery.nextAt;
      } else {
        delivery.lastError = outcome.error;
        if (outcome.retryAt === undefined) {
          delivery.state = 'failed';
          delete delivery.nextAt;
        } else {
          delivery.dueAt = outcome.retryAt;
          delivery.nextAt = outcome.retryAt;
        }
      }
    }
    if (!webhook) return;
    if (outcome.ok) {
      delete webhook.failingSince;
      return;
    }
    webhook.failingSince ??= outcome.at;
    if (webhook.disabledAt === undefined && outcome.at - webhook.failingSince >= DISABLE_AFTER_MS) {
      webhook.disabledAt = outcome.at;
      webhook.disabledReason = outcome.error;
    }
  };

  return {
    async createWebhook(webhook) {
      const made = { ...webhook, id: ++lastId, events: [...webhook.events] };
      webhooks.set(made.id, made);
      return copy(made);
    },
    async listWebhooks(owner) {
      return [...webhooks.values()].filter((webhook) => webhook.ownerId === owner).map(copy);
    },
    async findWebhook(id, owner) {
      const found = owned(id, owner);
      return found && copy(found);
    },
    async deleteWebhook(id, owner) {
      if (!owned(id, owner)) return false;
      webhooks.delete(id);
      for (const [key, delivery] of deliveries) if (delivery.webhookId === id) deliveries.delete(key);
      return true;
    },
    async activeWebhooks() {
      return [...webhooks.values()].filter((webhook) => webhook.disabledAt === undefined).map(copy);
    },
    async enqueueDeliveries(batch: NewDelivery[]) {
      for (const delivery of batch) {
        if (!webhooks.has(delivery.webhookId) || deliveries.has(delivery.id)) continue;
        deliveries.set(delivery.id, {
          ...delivery,
          state: 'pending',
          attempts: 0,
          nextAt: delivery.createdAt,
          dueAt: delivery.createdAt,
        });
      }
    },
    async claimDeliveries(now, limit, leaseMs) {
      const due = [...deliveries.values()]
        .filter((delivery) => {
          const webhook = webhooks.get(delivery.webhookId);
          return delivery.state === 'pending' && delivery.dueAt <= now && webhook?.disabledAt === undefined;
        })
        .sort((a, b) => a.dueAt - b.dueAt)
        .slice(0, limit);
      return due.map((delivery): ClaimedDelivery => {
        const webhook = webhooks.get(delivery.webhookId) as Webhook;
        const attempts = delivery.attempts;
        delivery.attempts += 1;
        delivery.dueAt = now + leaseMs;
        delivery.nextAt = delivery.dueAt;
        return {
          id: delivery.id,
          webhookId: webhook.id,
          url: webhook.url,
          secret: webhook.secret,
          body: delivery.body,
          attempts,
        };
      });
    },
    async finishDeliveries(finished) {
      for (const { id, webhookId, outcome } of finished) finish(id, webhookId, outcome);
    },
    async listDeliveries(webhookId, owner, limit) {
      if (!owned(webhookId, owner)) return [];
      // Newest first; among those made at once, the last queued first (a stable sort of the reversed queue).
      return [...deliveries.values()]
        .filter((delivery) => delivery.webhookId === webhookId)
        .reverse()
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, limit)
        .map(record);
    },
  };
}
