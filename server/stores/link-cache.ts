import { isActive } from '../../core/expiry.js';
import { isManagedLinkStore, type ManagedLinkStore } from '../../core/link-management-store.js';
import type { Link, LinkStore } from '../../core/link-store.js';
import { keepLocationOf } from '../../core/resolve.js';
import type { ChangeFeed, LinkChangeEvent } from './change-feed.js';

export interface LinkCacheOptions {
  /** Most links kept; the least recently used goes first. 0 turns the cache off. */
  maxEntries: number;
  /** Longest a cached link is trusted before the store is asked again (never past its expiry). */
  maxAgeMs: number;
  /** Epoch ms; injected so tests are exact. */
  now?: () => number;
}

/** The management operations' wrappers, which forget the links they change. */
type Managed<S> = S extends ManagedLinkStore ? ManagedLinkStore : unknown;

/** A cached link in the recency list: `newer` towards the most recently used end. */
interface Entry {
  codeKey: string;
  link: Link;
  /** The entry answers until this moment: the link's expiry or the maximum age, whichever is first. */
  freshUntil: number;
  older: Entry | undefined;
  newer: Entry | undefined;
}

/** A `LinkStore` with an in-process cache in front of its reads. */
export interface CachedLinkStore extends LinkStore {
  /** Links held right now. */
  readonly size: number;
  /**
   * The link for this code key: at once (not a promise) when the cache holds it fresh, else the
   * store's promise. `findByCodeKey` is this, always as a promise.
   */
  lookup(codeKey: string): Link | Promise<Link | undefined>;
  /** Drops one link (changed here or elsewhere); a read under way for it is not cached either. */
  forget(codeKey: string): void;
}

/**
 * An LRU cache of active links in front of a store. Only active links are kept, and misses and
 * expired links are not cached at all, so a link created by another instance (or a code retaken
 * after expiry) is found on the very next request. An active link changes only through the
 * management API (a new target, disabled, deleted): this process forgets the link as it makes the
 * change, and the store's change feed (`changes`) tells it of changes made by other processes and
 * instances (within a poll or a notification: well under a second). When the feed loses track
 * (its connection dropped), the cache drops everything and serves from the store until the feed
 * is back. A read under way while a link is forgotten is not cached (an epoch counter), so it
 * cannot put the old state back.
 *
 * The recency order is a linked list beside the Map, not the Map's own insertion order: evicting
 * through `map.keys().next()` makes V8 skip every hole left by earlier deletions, which turned
 * a churning 100k-entry cache into 35 µs per lookup.
 *
 * Once the cache is full, a missed link gets in only if it has been asked for more often lately
 * than the link it would evict (TinyLFU: a small table of counters estimates how often each code
 * was asked for, and halves them now and then so that old popularity fades). A stream of one-off
 * lookups (a crawler, or traffic spread evenly over millions of links) then passes by instead of
 * evicting the links people keep clicking, and churns no memory for entries that would never be
 * read again.
 */
export function withLinkCache<S extends LinkStore & { changes?: ChangeFeed }>(
  store: S,
  options: LinkCacheOptions,
): CachedLinkStore & Managed<S> {
  const now = options.now ?? Date.now;
  const { maxEntries, maxAgeMs } = options;
  const entries = new Map<string, Entry>();
  let newest: Entry | undefined;
  let oldest: Entry | undefined;
  // Moves at every forget and drop: a store read begun before it is not cached.
  let epoch = 0;
  // The change feed lost track: nothing is cached until it is back.
  let feedLost = false;
  // Popularity (a count-min sketch): four counters (0–15) per code in a table of sixteen per
  // entry (a power of two, 4 KB to 16 MB; 2 MB for the default 100k entries), all halved every
  // ten entries' worth of lookups. A code's estimate is the smallest of its four counters, so it
  // is only overstated when all four are shared with busier codes.
  const counters = new Uint8Array(2 ** Math.min(24, Math.max(12, Math.ceil(Math.log2(Math.max(1, maxEntries) * 16)))));
  const mask = counters.length - 1;
  const halveEvery = 10 * Math.max(100, maxEntries);
  let counted = 0;
  const slot = (hash: number, step: number, i: number) => (hash + i * step) & mask;
  const count = (codeKey: string) => {
    const hash = hashOf(codeKey);
    const step = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) | 1;
    for (let i = 0; i < 4; i++) {
      const at = slot(hash, step, i);
      if ((counters[at] as number) < 15) counters[at] = (counters[at] as number) + 1;
    }
    if (++counted >= halveEvery) {
      counted = 0;
      for (let i = 0; i < counters.length; i++) counters[i] = (counters[i] as number) >> 1;
    }
  };
  const popularity = (codeKey: string): number => {
    const hash = hashOf(codeKey);
    const step = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) | 1;
    let least = 15;
    for (let i = 0; i < 4; i++) least = Math.min(least, counters[slot(hash, step, i)] as number);
    return least;
  };
  /** Whether a missed link should be cached: while there is room, or if it beats the one to go. */
  const admit = (codeKey: string): boolean =>
    entries.size < maxEntries || (oldest !== undefined && popularity(codeKey) > popularity(oldest.codeKey));

  const unlink = (entry: Entry) => {
    if (entry.older) entry.older.newer = entry.newer;
    else oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else newest = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  };
  const pushNewest = (entry: Entry) => {
    entry.older = newest;
    if (newest) newest.newer = entry;
    else oldest = entry;
    newest = entry;
  };
  const remember = (codeKey: string, link: Link, at: number) => {
    keepLocationOf(link);
    const stale = entries.get(codeKey);
    if (stale) unlink(stale);
    const entry: Entry = {
      codeKey,
      link,
      freshUntil: Math.min(link.expiresAt, at + maxAgeMs),
      older: undefined,
      newer: undefined,
    };
    entries.set(codeKey, entry);
    pushNewest(entry);
    if (entries.size > maxEntries && oldest) {
      entries.delete(oldest.codeKey);
      unlink(oldest);
    }
  };

  /** The fresh cached link for this key (now the most recently used), if there is one. */
  const cached = (codeKey: string): Link | undefined => {
    const entry = entries.get(codeKey);
    if (entry === undefined) return undefined;
    if (now() < entry.freshUntil) {
      if (entry !== newest) {
        unlink(entry);
        pushNewest(entry);
      }
      return entry.link;
    }
    entries.delete(codeKey);
    unlink(entry);
    return undefined;
  };

  const lookup = (codeKey: string): Link | Promise<Link | undefined> => {
    if (maxEntries <= 0) return store.findByCodeKey(codeKey);
    count(codeKey);
    const hit = cached(codeKey);
    if (hit !== undefined) return hit;
    const startedAt = epoch;
    return store.findByCodeKey(codeKey).then((found) => {
      const at = now();
      if (found !== undefined && startedAt === epoch && !feedLost && isActive(found.expiresAt, at) && admit(codeKey)) {
        remember(codeKey, found, at);
      }
      return found;
    });
  };

  const forget = (codeKey: string) => {
    epoch += 1;
    const entry = entries.get(codeKey);
    if (entry === undefined) return;
    entries.delete(codeKey);
    unlink(entry);
  };
  const dropAll = () => {
    epoch += 1;
    entries.clear();
    newest = undefined;
    oldest = undefined;
  };
  const onChange = (event: LinkChangeEvent) => {
    if (event.kind === 'changed') for (const codeKey of event.codeKeys) forget(codeKey);
    else {
      feedLost = event.kind === 'lost';
      dropAll();
    }
  };
  const unsubscribe = maxEntries > 0 ? store.changes?.subscribe(onChange) : undefined;

  const managed: Partial<ManagedLinkStore> = {};
  if (isManagedLinkStore(store)) {
    Object.assign(managed, store);
    managed.updateLink = async (codeKey, scope, patch, at) => {
      try {
        return await store.updateLink(codeKey, scope, patch, at);
      } finally {
        forget(codeKey);
      }
    };
    managed.deleteLink = async (codeKey, scope, at) => {
      try {
        return await store.deleteLink(codeKey, scope, at);
      } finally {
        forget(codeKey);
      }
    };
  }

  return {
    ...managed,
    get size() {
      return entries.size;
    },
    create: (link, at) => store.create(link, at),
    lookup,
    forget,
    findByCodeKey(codeKey) {
      const found = lookup(codeKey);
      return found instanceof Promise ? found : Promise.resolve(found);
    },
    ping: () => store.ping(),
    close: () => {
      unsubscribe?.();
      dropAll();
      return store.close();
    },
  } as CachedLinkStore & Managed<S>;
}

/** 32-bit FNV-1a of a string's UTF-16 code units: fast, and spread well enough for fingerprints. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
