import type { ManagedLinkStore } from '../store/link-management-store.js';
import type { WebhookEvents } from './webhook-events.js';

/**
 * The store with `link.created`, `link.updated` and `link.deleted` queued after each successful
 * create, change (a claim among them) and delete, whichever path made it (the v1 API, a fast path, Shlink's or
 * YOURLS's API, an import). The deliveries are queued before the caller is answered, so an
 * acknowledged change is told at least once. Everything else passes through as it is.
 */
export function withLinkEvents<S extends ManagedLinkStore>(store: S, events: WebhookEvents): S {
  return {
    ...store,
    async create(link, now) {
      const result = await store.create(link, now);
      if (result.created) await events.linkChanged('link.created', result.link);
      return result;
    },
    async updateLink(codeKey, scope, patch, now) {
      const result = await store.updateLink(codeKey, scope, patch, now);
      if (result.updated) await events.linkChanged('link.updated', result.link);
      return result;
    },
    // A claimed link is its new owner's from now on: their endpoints hear of it as a change.
    async claimLink(codeKey, claimTokenHash, ownerId, now) {
      const link = await store.claimLink(codeKey, claimTokenHash, ownerId, now);
      if (link) await events.linkChanged('link.updated', link);
      return link;
    },
    async deleteLink(codeKey, scope, now) {
      // Read first only when someone is told: the deletion leaves nothing to read.
      const before = events.directory.wants('link.deleted') ? await store.findByCodeKey(codeKey) : undefined;
      const deleted = await store.deleteLink(codeKey, scope, now);
      if (deleted && before) await events.linkDeleted(before, now);
      return deleted;
    },
  };
}
