import type { ClaimedDelivery, WebhookStore } from '../../core/webhooks/webhook-store.js';
import { DELIVERY_TIMEOUT_MS, type PostResult, postDelivery } from './post-delivery.js';
import { retryAtAfter } from './retry-schedule.js';
import { signDelivery } from './sign-delivery.js';

export interface WebhookSenderOptions {
  store: Pick<WebhookStore, 'claimDeliveries' | 'finishDelivery'>;
  blockPrivateTargets: boolean;
  logger: { warn: (fields: object, message: string) => void };
  /** Deliveries in flight at once from this process (default 8). */
  concurrency?: number;
  /** How often the queue is looked at when nothing nudges the sender (default 1 s). */
  pollMs?: number;
  /** How long a claim holds a delivery: past it, a delivery whose sender died is due again. */
  leaseMs?: number;
  timeoutMs?: number;
  now?: () => number;
  /** Sends one delivery (tests replace it); `postDelivery` by default. */
  post?: typeof postDelivery;
}

/**
 * Sends the store's due deliveries from this process: claims as many as it has room for (at
 * most `concurrency` in flight, so a slow or dead endpoint costs a bounded number of sockets and
 * nothing in memory beyond them: the queue stays in the store), signs each per Standard
 * Webhooks at each attempt, and records the outcome with its next attempt. Instances sharing a
 * store claim apart (see `WebhookStore.claimDeliveries`).
 */
export function startWebhookSender(options: WebhookSenderOptions) {
  const { store, logger } = options;
  const concurrency = options.concurrency ?? 8;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? timeoutMs * 6;
  const now = options.now ?? Date.now;
  const post = options.post ?? postDelivery;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let claiming = false;
  let again = false;
  let claimFailing = false;

  const send = async (delivery: ClaimedDelivery) => {
    const timestamp = Math.floor(now() / 1000);
    let result: PostResult;
    try {
      result = await post({
        url: delivery.url,
        body: delivery.body,
        blockPrivateTargets: options.blockPrivateTargets,
        timeoutMs,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Linklet-Webhooks',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signDelivery(delivery.secret, delivery.id, timestamp, delivery.body),
        },
      });
    } catch (error) {
      result = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    const at = now();
    const outcome = result.ok
      ? { ok: true as const, status: result.status, at }
      : { ...result, at, retryAt: retryAtAfter(delivery.attempts + 1, at) };
    // Not recorded (the store is down): the lease ends and the delivery comes again, same id.
    await store.finishDelivery(delivery.id, delivery.webhookId, outcome).catch((error: unknown) => {
      logger.warn({ err: error, delivery: delivery.id }, 'a webhook delivery could not be recorded');
    });
  };

  /** Claims what there is room for, and again while claims come back full. */
  const claim = async () => {
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    try {
      do {
        again = false;
        const room = concurrency - inFlight.size;
        if (stopped || room <= 0) break;
        const claimed = await store.claimDeliveries(now(), room, leaseMs);
        for (const delivery of claimed) {
          const sending: Promise<void> = send(delivery).finally(() => {
            inFlight.delete(sending);
            if (!stopped) void claim();
          });
          inFlight.add(sending);
        }
        if (claimed.length === room) again = true;
        claimFailing = false;
      } while (again && !stopped);
    } catch (error) {
      // Once per outage (a lock held elsewhere, a database out of reach), not once a second.
      if (!claimFailing)
        logger.warn({ err: error }, 'webhook deliveries could not be claimed; trying again each second');
      claimFailing = true;
    } finally {
      claiming = false;
    }
  };

  const timer = setInterval(() => void claim(), options.pollMs ?? 1000);
  timer.unref?.();
  void claim();
  return {
    /** Looks for due deliveries now (something was just queued). */
    nudge: () => void claim(),
    /** Stops claiming and waits for the deliveries in flight (each ends within its timeout). */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}

export type WebhookSender = ReturnType<typeof startWebhookSender>;
