import type { Webhook, WebhookEvent, WebhookStore } from './webhook-store.js';

/**
 * The enabled endpoints, read from the store and kept in memory, so that a create, a change or a
 * click with no endpoint to tell costs no store read. `refresh` reads them again: after an
 * endpoint is added or removed here at once, and on a timer for those of other instances.
 */
export function createWebhookDirectory(store: Pick<WebhookStore, 'activeWebhooks'>) {
  let webhooks: Webhook[] = [];
  let wanted = new Set<WebhookEvent>();
  // Who takes clicks: the administrator's endpoints take every link's, an owner's their own.
  let everyLinksClicks = false;
  let clickOwners = new Set<number>();
  let timer: ReturnType<typeof setInterval> | undefined;
  const refresh = async () => {
    webhooks = await store.activeWebhooks();
    wanted = new Set(webhooks.flatMap((webhook) => webhook.events));
    const takingClicks = webhooks.filter((webhook) => webhook.events.includes('link.clicked'));
    everyLinksClicks = takingClicks.some((webhook) => webhook.ownerId === null);
    clickOwners = new Set(takingClicks.flatMap((webhook) => (webhook.ownerId === null ? [] : [webhook.ownerId])));
  };
  return {
    refresh,
    /** Whether any endpoint takes this event (a click's cheap first question). */
    wants: (event: WebhookEvent): boolean => wanted.has(event),
    /**
     * Whether any endpoint takes the clicks of a link of this owner (undefined: nobody's link),
     * asked on every click: one owner's endpoint must not make every other owner's clicks work.
     */
    takesClicksOf: (ownerId: number | undefined): boolean =>
      everyLinksClicks || (ownerId !== undefined && clickOwners.has(ownerId)),
    /** The endpoints told of this event on a link of this owner: the owner's, and the administrator's. */
    matching(ownerId: number | undefined, event: WebhookEvent): Webhook[] {
      if (!wanted.has(event)) return [];
      return webhooks.filter(
        (webhook) => webhook.events.includes(event) && (webhook.ownerId === null || webhook.ownerId === ownerId),
      );
    },
    /** Refreshes every `everyMs` until `stop`; a failed read keeps what was known. */
    start(everyMs: number, onError?: (error: unknown) => void) {
      timer ??= setInterval(() => void refresh().catch((error) => onError?.(error)), everyMs);
      timer.unref?.();
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}

export type WebhookDirectory = ReturnType<typeof createWebhookDirectory>;
