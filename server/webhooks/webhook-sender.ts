import type {
  ClaimedDelivery,
  DeliveryOutcome,
  FinishedDelivery,
  WebhookStore,
} from '../../core/webhooks/webhook-store.js';
import { DELIVERY_TIMEOUT_MS, type PostResult, postDelivery } from './post-delivery.js';
import { retryAtAfter } from './retry-schedule.js';
import { signDelivery } from './sign-delivery.js';

export interface WebhookSenderOptions {
  store: Pick<WebhookStore, 'claimDeliveries' | 'finishDeliveries'>;
  blockPrivateTargets: boolean;
  logger: { warn: (fields: object, message: string) => void };
  /** Deliveries in flight at once from this process (default 8). */
  concurrency?: number;
  /** How often the queue is looked at when nothing nudges the sender (default 1 s). */
  pollMs?: number;
  /** How long a claim holds a delivery: past it, a delivery whose sender died is due again. */
  leaseMs?: number;
  timeoutMs?: number;
  /** How long outcomes wait to be recorded together (default 200 ms). */
  recordEveryMs?: number;
  now?: () => number;
  /** Sends one delivery (tests replace it); `postDelivery` by default. */
  post?: typeof postDelivery;
}

/** Claimed deliveries a sender holds at most, as a multiple of its concurrency (one claim feeds several sends). */
const HELD_PER_SLOT = 4;

/**
 * Sends the store's due deliveries from this process. It claims a few at a time (at most
 * `concurrency` × 4 held, at most `concurrency` in flight, so a slow or dead endpoint costs a
 * bounded number of sockets and nothing in memory beyond them: the queue stays in the store),
 * signs each per Standard Webhooks at each attempt, and records the outcomes together, each with
 * its next attempt. Instances sharing a store claim apart (see `WebhookStore.claimDeliveries`).
 */
export function startWebhookSender(options: WebhookSenderOptions) {
  const { store, logger } = options;
  const concurrency = options.concurrency ?? 8;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const maxHeld = concurrency * HELD_PER_SLOT;
  // Room for every held delivery to wait its turn and time out, and more.
  const leaseMs = options.leaseMs ?? timeoutMs * (HELD_PER_SLOT + 2);
  const now = options.now ?? Date.now;
  const post = options.post ?? postDelivery;
  const held: ClaimedDelivery[] = [];
  const inFlight = new Set<Promise<void>>();
  let outcomes: FinishedDelivery[] = [];
  let recordTimer: ReturnType<typeof setTimeout> | undefined;
  let recording: Promise<void> = Promise.resolve();
  let stopped = false;
  let claiming = false;
  let again = false;
  let claimFailing = false;

  /** Writes the outcomes gathered so far in one store write; one that fails is sent again after its lease. */
  const record = () => {
    clearTimeout(recordTimer);
    recordTimer = undefined;
    const batch = outcomes;
    outcomes = [];
    if (batch.length === 0) return recording;
    recording = recording
      .then(() => store.finishDeliveries(batch))
      .catch((error: unknown) =>
        logger.warn({ err: error, deliveries: batch.length }, 'webhook deliveries could not be recorded'),
      );
    return recording;
  };
  const finished = (delivery: ClaimedDelivery, outcome: DeliveryOutcome) => {
    outcomes.push({ id: delivery.id, webhookId: delivery.webhookId, outcome });
    if (outcomes.length >= maxHeld) void record();
    else recordTimer ??= setTimeout(() => void record(), options.recordEveryMs ?? 200);
  };

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
    finished(
      delivery,
      result.ok
        ? { ok: true, status: result.status, at }
        : { ...result, at, retryAt: retryAtAfter(delivery.attempts + 1, at) },
    );
  };

  /** Starts sends while there are held deliveries and room in flight. */
  const pump = () => {
    while (!stopped && inFlight.size < concurrency && held.length > 0) {
      const delivery = held.shift() as ClaimedDelivery;
      const sending: Promise<void> = send(delivery).finally(() => {
        inFlight.delete(sending);
        pump();
        if (held.length < concurrency) void claim();
      });
      inFlight.add(sending);
    }
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
        const room = maxHeld - held.length - inFlight.size;
        if (stopped || room <= 0) break;
        const claimed = await store.claimDeliveries(now(), room, leaseMs);
        held.push(...claimed);
        pump();
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
    /**
     * Stops claiming, waits for the deliveries in flight (each ends within its timeout) and
     * records them; the held ones not yet sent are due again when their lease ends.
     */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled([...inFlight]);
      await record();
    },
  };
}

export type WebhookSender = ReturnType<typeof startWebhookSender>;
