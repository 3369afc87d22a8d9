/** What an endpoint can be told of. `webhook.test` is sent only on the owner's request. */
export const WEBHOOK_EVENTS = ['link.created', 'link.updated', 'link.deleted', 'link.clicked'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type DeliveryType = WebhookEvent | 'webhook.test';

/**
 * Whose endpoint: an owner's id, or `null` for the administrator's (`API_KEY`), which is told of
 * every link. Owners never see each other's endpoints nor the administrator's.
 */
export type WebhookOwner = number | null;

/** An endpoint as stored. Times are epoch milliseconds. */
export interface Webhook {
  id: number;
  ownerId: WebhookOwner;
  url: string;
  events: WebhookEvent[];
  /** `whsec_` + base64 of the signing key: shown to its owner once, at creation. */
  secret: string;
  createdAt: number;
  /** Since when every delivery has failed (absent: the last one succeeded, or none was tried). */
  failingSince?: number;
  /** Disabled after failing for a day: when, and the last failure's reason. */
  disabledAt?: number;
  disabledReason?: string;
}

/** One delivery to enqueue: its `webhook-id`, and the body every attempt sends unchanged. */
export interface NewDelivery {
  id: string;
  webhookId: number;
  type: DeliveryType;
  /** The JSON body `{"type","timestamp","data"}`. */
  body: string;
  createdAt: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** A delivery as its endpoint's owner reads it. */
export interface DeliveryRecord {
  id: string;
  webhookId: number;
  type: DeliveryType;
  createdAt: number;
  state: DeliveryState;
  attempts: number;
  /** When the next attempt is due (pending ones). */
  nextAt?: number;
  lastAttemptAt?: number;
  /** The last answer's HTTP status, when there was one. */
  lastStatus?: number;
  /** Why the last attempt failed, in words. */
  lastError?: string;
}

/** A delivery a sender has claimed: what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  webhookId: number;
  url: string;
  secret: string;
  body: string;
  /** Attempts before this one. */
  attempts: number;
}

/** What an attempt came to: 2xx, or a failure with the next try (none: given up). */
export type DeliveryOutcome =
  | { ok: true; status: number; at: number }
  | { ok: false; status?: number; error: string; at: number; retryAt?: number };

/** An owner keeps at most this many endpoints: each event is queued once per endpoint. */
export const MAX_WEBHOOKS_PER_OWNER = 20;
/** Deliveries `GET /api/v1/webhooks/{id}/deliveries` shows: the endpoint's last ones. */
export const DELIVERIES_SHOWN = 20;

/** One attempt's outcome, as a sender records it. */
export interface FinishedDelivery {
  id: string;
  webhookId: number;
  outcome: DeliveryOutcome;
}

/** An endpoint failing without a break for this long is disabled. */
export const DISABLE_AFTER_MS = 86_400_000;

/**
 * The endpoints and their durable delivery queue. The server's SQLite and PostgreSQL stores and
 * a memory store implement it; `test/contract/webhook-contract.ts` holds them to the same rules.
 */
export interface WebhookStore {
  createWebhook(webhook: Omit<Webhook, 'id'>): Promise<Webhook>;
  /** The owner's endpoints, oldest first. */
  listWebhooks(owner: WebhookOwner): Promise<Webhook[]>;
  findWebhook(id: number, owner: WebhookOwner): Promise<Webhook | undefined>;
  /** Removes the owner's endpoint and its deliveries; false when the owner has none of this id. */
  deleteWebhook(id: number, owner: WebhookOwner): Promise<boolean>;
  /** Every endpoint not disabled, of every owner (what events are matched against). */
  activeWebhooks(): Promise<Webhook[]>;
  /** Queues deliveries durably (one transaction), each due at once. */
  enqueueDeliveries(deliveries: NewDelivery[]): Promise<void>;
  /**
   * Claims up to `limit` due deliveries of enabled endpoints, oldest due first, for `leaseMs`:
   * until then no other sender (another instance) claims them; after it, an unfinished one (its
   * sender died) is due again under the same id. Each claimed delivery counts one more attempt.
   */
  claimDeliveries(now: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /**
   * Records attempts, in order, in one write: each delivered; or failed, due again at `retryAt`
   * (or given up without it). A failure starts (or continues) the endpoint's failing time, and
   * disables it once that reaches `DISABLE_AFTER_MS`; a success ends it.
   */
  finishDeliveries(finished: FinishedDelivery[]): Promise<void>;
  /** The endpoint's last `limit` deliveries, newest first (none for another owner's). */
  listDeliveries(webhookId: number, owner: WebhookOwner, limit: number): Promise<DeliveryRecord[]>;
}

export const WEBHOOK_OPERATIONS = [
  'createWebhook',
  'listWebhooks',
  'findWebhook',
  'deleteWebhook',
  'activeWebhooks',
  'enqueueDeliveries',
  'claimDeliveries',
  'finishDeliveries',
  'listDeliveries',
] as const satisfies ReadonlyArray<keyof WebhookStore>;

/** Whether a store keeps webhooks (the server's and the memory store's do; the extension's does not). */
export function isWebhookStore(store: object): store is WebhookStore {
  return WEBHOOK_OPERATIONS.every((name) => typeof (store as Partial<WebhookStore>)[name] === 'function');
}

/** Events as the stores keep them: one text, space separated. */
export const eventsText = (events: readonly WebhookEvent[]): string => events.join(' ');
export const eventsOf = (text: string): WebhookEvent[] =>
  text.split(' ').filter((event): event is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(event));
