import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import type { WebhookStore } from '../../core/webhooks/webhook-store.js';
import type { ChangeFeed } from './change-feed.js';

/**
 * What the server runs on, whichever engine `DATABASE_URL` names: the management operations,
 * webhooks with their delivery queue, and the feed of changes other processes make (which the
 * link cache needs to forget them).
 */
export type ServerLinkStore = ManagedLinkStore & WebhookStore & { changes?: ChangeFeed };
