import { isActive } from '../../core/expiry.js';
import type { Link, LinkStore } from '../../core/link-store.js';
import { createCompactLinkTable } from './compact-link-table.js';
import { createFrequencySketch, hashOf } from './frequency-sketch.js';

/** The default byte budget of each process's cache (`CACHE_MAX_BYTES`): a million typical links. */
export const DEFAULT_CACHE_MAX_BYTES = 128 * 1024 * 1024;
// What a typical link (60 ASCII characters, 7-letter code) takes, its share of the sketch included.
const TYPICAL_LINK_BYTES = 128;

export interface LinkCacheOptions {
  /** Most links kept. 0 turns the cache off. */
  maxEntries: number;
  /**
   * Most bytes the cache holds, its frequency table included (default `DEFAULT_CACHE_MAX_BYTES`);
   * long links take more of it, so fewer of them are kept.
   */
  maxBytes?: number;
  /** Longest a cached link is trusted before the store is asked again (never past its expiry). */
  maxAgeMs: number;
  /** Epoch ms; injected so tests are exact. */
  now?: () => number;
}

/** A `LinkStore` with an in-process cache in front of its reads. */
export interface CachedLinkStore extends LinkStore {
  /** Links held right now. */
  readonly size: number;
  /** Bytes the cache holds right now; never more than its `maxBytes`. */
  readonly bytes: number;
  /**
   * The link for this code key: at once (not a promise) when the cache holds it fresh, else the
   * store's promise. `findByCodeKey` is this, always as a promise.
   */
  lookup(codeKey: string): Link | Promise<Link | undefined>;
}

/**
 * A cache of active links in front of a store, bounded in entries and in bytes. Only active
 * links are kept: an active link never changes (a code is only ever retaken once its holder has
 * expired), so a cached link is exactly what the store would say until it expires, and an entry
 * never outlives its link. Misses and expired links are not cached at all, so a link created by
 * another instance (or a code retaken after expiry) is found on the very next request.
 *
 * Links are held as bytes (see `createCompactLinkTable`), about 125 bytes for a typical one (60
 * characters, frequency table included), so the default 128 MiB holds a million; a hit makes one
 * small object and one string (the ASCII URL), which the redirect sends as it is.
 *
 * Once the cache is full, a missed link gets in only if it has been asked for more often lately
 * than the link it would evict (TinyLFU, see `createFrequencySketch`). A stream of one-off
 * lookups (a crawler, or traffic spread evenly over millions of links) then passes by instead of
 * evicting the links people keep clicking, and churns no memory for entries that would never be
 * read again.
 */
export function withLinkCache(store: LinkStore, options: LinkCacheOptions): CachedLinkStore {
  const now = options.now ?? Date.now;
  const { maxEntries, maxAgeMs } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
  // The sketch's bytes come out of the same budget as the links', sized for as many links as
  // the budget holds (typical ones), not for more.
  const sketch = createFrequencySketch(Math.min(Math.max(0, maxEntries), Math.floor(maxBytes / TYPICAL_LINK_BYTES)));
  const table = createCompactLinkTable({ maxEntries, maxBytes: Math.max(0, maxBytes - sketch.bytes) });
  // How long an entry is trusted is kept in whole seconds from here, rounded down: an entry may
  // be read again up to a second early, never late (its expiry is kept to the millisecond).
  const origin = now();

  /** Keeps a link just read from the store, if it is worth a place. */
  const remember = (codeKey: string, hash: number, link: Link, at: number) => {
    if (at < origin) return; // the clock went back: no whole seconds to count
    if (table.isFull()) {
      const evict = table.victim();
      if (evict !== -1) {
        if (sketch.estimate(hash) <= sketch.estimate(table.hashAt(evict))) return;
        table.remove(evict);
      }
    }
    // Parsed once, here; every hit then answers with the stored ASCII form.
    table.insert(codeKey, hash, link, new URL(link.originalUrl).href, Math.floor((at + maxAgeMs - origin) / 1000));
  };

  const lookup = (codeKey: string): Link | Promise<Link | undefined> => {
    if (maxEntries <= 0) return store.findByCodeKey(codeKey);
    const hash = hashOf(codeKey);
    sketch.count(hash);
    const slot = table.find(codeKey, hash);
    if (slot !== -1) {
      const at = now();
      if (at < table.expiresAt(slot) && at < origin + table.trustedUntilAt(slot) * 1000) {
        table.touch(slot);
        return table.linkAt(slot, codeKey);
      }
      table.remove(slot);
    }
    return store.findByCodeKey(codeKey).then((found) => {
      const at = now();
      if (found !== undefined && isActive(found.expiresAt, at)) remember(codeKey, hash, found, at);
      return found;
    });
  };

  return {
    get size() {
      return table.size;
    },
    get bytes() {
      return maxEntries <= 0 ? 0 : table.bytes + sketch.bytes;
    },
    create: (link, at) => store.create(link, at),
    lookup,
    findByCodeKey(codeKey) {
      const found = lookup(codeKey);
      return found instanceof Promise ? found : Promise.resolve(found);
    },
    ping: () => store.ping(),
    close: () => {
      table.clear();
      return store.close();
    },
  };
}
