import type { ManagedLinkStore } from '../../core/store/link-management-store.js';

/**
 * The store as the handler is given it, its `deleteVisits` first writing every click and visit
 * this process has counted (`flushAll`): a link's visits deleted on request are the ones counted
 * before it, and none of those comes back in a batch written after it. Another instance's
 * unwritten clicks (its last second; visits held under load, a few seconds) land after the
 * deletion and count as new: the API docs say so. A store that refuses the write still deletes
 * (the refused counts stay kept and are written later, as new).
 */
export function withVisitsDeletedAfterWrites<S extends ManagedLinkStore>(
  store: S,
  flushAll: () => Promise<unknown>,
): S {
  const wrapped = Object.create(store) as S;
  wrapped.deleteVisits = async (codeKey, scope, now) => {
    await flushAll().catch(() => undefined);
    return store.deleteVisits(codeKey, scope, now);
  };
  return wrapped;
}
