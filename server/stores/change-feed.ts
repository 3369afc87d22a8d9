/**
 * What another process (or instance) changed: these links (patched, disabled, deleted), or
 * "anything may have changed" when the feed itself lost track (a dropped notification
 * connection, a change log pruned past what this process read). `restored` follows a `lost`
 * once the feed is back to telling every change.
 */
export type LinkChangeEvent = { kind: 'changed'; codeKeys: string[] } | { kind: 'lost' } | { kind: 'restored' };

/** Tells a process about link changes made through other connections to the same database. */
export interface ChangeFeed {
  /** Starts listening (on the first subscriber); the returned function stops this subscriber. */
  subscribe(listener: (event: LinkChangeEvent) => void): () => void;
}

/** A feed's listeners: every event goes to each of them; `start`/`stop` bracket the first and last. */
export function createListeners(start: () => void, stop: () => void) {
  const listeners = new Set<(event: LinkChangeEvent) => void>();
  return {
    subscribe(listener: (event: LinkChangeEvent) => void) {
      listeners.add(listener);
      if (listeners.size === 1) start();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    emit(event: LinkChangeEvent) {
      for (const listener of listeners) listener(event);
    },
  };
}
