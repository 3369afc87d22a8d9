import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import type { ChangeFeed } from './change-feed.js';

/**
 * What the server runs on, whichever engine `DATABASE_URL` names: the management operations, and
 * the feed of changes other processes make (which the link cache needs to forget them).
 */
export type ServerLinkStore = ManagedLinkStore & { changes?: ChangeFeed };
