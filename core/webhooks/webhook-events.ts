import type { Link } from '../store/link-store.js';
import type { WebhookDirectory } from './webhook-directory.js';
import { deletedLinkData, deliveryBody, deliveryBodyOfJson, linkEventData } from './webhook-payloads.js';
import { generateDeliveryId } from './webhook-secret.js';
import type { NewDelivery, WebhookEvent, WebhookStore } from './webhook-store.js';

export interface WebhookEventsOptions {
  store: Pick<WebhookStore, 'enqueueDeliveries'>;
  directory: WebhookDirectory;
  baseUrl: string;
  now: () => number;
  /** Told once deliveries are queued (the server's sender sends them at once). */
  onQueued?: () => void;
  /** Told when deliveries could not be queued (the change itself was made). */
  onError?: (error: unknown) => void;
}

/**
 * Turns link events into queued deliveries, one per endpoint that takes the event, each with
 * its body fixed now (every attempt sends the same bytes under the same `webhook-id`).
 */
export function createWebhookEvents(options: WebhookEventsOptions) {
  const { directory, baseUrl, now } = options;
  // Deliveries made in the same turn (an import's creates resolve together) go in one write.
  let batch: NewDelivery[] = [];
  let queued: Promise<void> | undefined;
  const enqueue = (deliveries: NewDelivery[]): Promise<void> => {
    if (deliveries.length === 0) return Promise.resolve();
    batch.push(...deliveries);
    queued ??= new Promise<void>((resolve) => setTimeout(resolve, 0)).then(async () => {
      const taken = batch;
      batch = [];
      queued = undefined;
      try {
        await options.store.enqueueDeliveries(taken);
        options.onQueued?.();
      } catch (error) {
        options.onError?.(error);
      }
    });
    return queued;
  };
  /** One delivery of this event to one endpoint, its body fixed now around `dataJson`. */
  const deliveryTo = (webhookId: number, event: WebhookEvent, at: number, dataJson: string): NewDelivery => ({
    id: generateDeliveryId(),
    webhookId,
    type: event,
    body: deliveryBodyOfJson(event, at, dataJson),
    createdAt: at,
  });
  const deliveriesOf = (event: WebhookEvent, ownerId: number | undefined, at: number, data: object) => {
    const body = deliveryBody(event, at, data);
    return directory
      .matching(ownerId, event)
      .map((webhook) => ({ id: generateDeliveryId(), webhookId: webhook.id, type: event, body, createdAt: at }));
  };
  return {
    directory,
    enqueue,
    deliveryTo,
    deliveriesOf,
    /** Queues `link.created` or `link.updated` for the endpoints that take it; never throws. */
    async linkChanged(event: 'link.created' | 'link.updated', link: Link): Promise<void> {
      if (!directory.wants(event)) return;
      const at = now();
      await enqueue(deliveriesOf(event, link.ownerId, at, linkEventData(link, baseUrl, at)));
    },
    async linkDeleted(link: Link, at: number): Promise<void> {
      if (!directory.wants('link.deleted')) return;
      await enqueue(deliveriesOf('link.deleted', link.ownerId, at, deletedLinkData(link, baseUrl, at)));
    },
  };
}

export type WebhookEvents = ReturnType<typeof createWebhookEvents>;
