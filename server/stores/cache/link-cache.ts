import type { LocatedLink } from '../../../core/redirect/resolve.js';
import { isActive } from '../../../core/rules/expiry.js';
import { isManagedLinkStore, type ManagedLinkStore } from '../../../core/store/link-management-store.js';
import type { Link, LinkStore } from '../../../core/store/link-store.js';
import type { ChangeFeed, LinkChangeEvent } from '../change-feed.js';
import { createCompactLinkTable } from './compact-link-table.js';
import { createFrequencySketch, hashOf } from './frequency-sketch.js';

/** The default byte budget of each process's cache (`CACHE_MAX_BYTES`): a million typical links. */
export const DEFAULT_CACHE_MAX_BYTES = 128 * 1024 * 1024;
// What a typical link (60 ASCII characters, 7-letter code) takes, its share of the sketch included.
const TYPICAL_LINK_BYTES = 128;
// Its record alone (code key, URL, header), without its slot and index cells.
const TYPICAL_RECORD_BYTES = 90;

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

/**
 * A link just read from the store, carrying the `Location` its redirect sends (parsed once, for
 * the cache and the redirect both). The location is a getter, not a field: it is no part of the
 * link, and the link compares equal to the store's.
 */
class ReadLink implements LocatedLink {
  declare readonly code: string;
  declare readonly codeKey: string;
  declare readonly originalUrl: string;
  declare readonly createdAt: number;
  declare readonly expiresAt: number;
  readonly #location: string;
  constructor(link: Link, location: string) {
    Object.assign(this, link);
    this.#location = location;
  }
  get location(): string {
    return this.#location;
  }
}

/** The management operations' wrappers, which forget the links they change. */
type Managed<S> = S extends ManagedLinkStore ? ManagedLinkStore : unknown;

/** A `LinkStore` with an in-process cache in front of its redirect reads (`lookup`). */
export interface CachedLinkStore extends LinkStore {
  /** Links held right now. */
  readonly size: number;
  /** Bytes the cache holds right now; never more than its `maxBytes`. */
  readonly bytes: number;
  /**
   * The link for this code key as a redirect needs it: at once (not a promise) when the cache
   * holds it fresh or the store reads synchronously (SQLite), else the store's promise. `findByCodeKey` always asks the store.
   */
  lookup(codeKey: string): Link | undefined | Promise<Link | undefined>;
  /** Drops one link (changed here or elsewhere); a read under way for it is not cached either. */
  forget(codeKey: string): void;
  /**
   * Keeps links read in bulk (warming the cache as the server starts) while there is room,
   * evicting none: how many it kept, and whether it has room for more (not when full, off, or
   * while the change feed has lost track). A page read before a forget (`readSince`, an `epoch()` taken
   * before the read began, is behind) is not kept: it may hold what was forgotten.
   */
  admit(links: readonly Link[], readSince: number): { kept: number; room: boolean };
  /** Takes the cache's whole byte budget now, rather than growing into it (see `reserve`). */
  reserve(): void;
  /** Moves at every forget: a bulk read begun before it may hold what was forgotten. */
  epoch(): number;
}

/**
 * A cache of active links in front of a store's redirect reads, bounded in entries and in bytes.
 * Only active, enabled links are kept, and misses, expired and disabled links are not cached at
 * all, so a link created by another instance (or a code retaken after expiry) is found on the
 * very next request. `findByCodeKey` (what the management API reads: owner, status, times) is
 * never cached.
 *
 * An active link changes through the management API (a new target, disabled, deleted), or by
 * hand in the database: this process forgets the link as it makes a change, and the store's
 * change feed (`changes`) tells it of changes made by other processes and instances, and of
 * updates and deletes made by hand, which the stores' triggers log or announce (within a poll or
 * a notification: well under a second). `maxAgeMs` bounds the rest (what no trigger sees). When
 * the feed loses track (its connection dropped), the cache drops everything and serves from the
 * store until the feed is back. A read under way while a link is forgotten is
 * not cached (an epoch counter), so it cannot put the old state back.
 *
 * Links are held as bytes (see `createCompactLinkTable`), about 125 bytes for a typical one (60
 * characters, frequency table included), so the default 128 MiB holds a million; a hit makes one
 * small object carrying the ASCII URL, which the redirect sends as it is.
 *
 * Once the cache is full, a missed link gets in only if it has been asked for more often lately
 * than the link it would evict (TinyLFU, see `createFrequencySketch`). A stream of one-off lookups
 * (a crawler, or traffic spread evenly over millions of links) then passes by instead of evicting
 * the links people keep clicking. A kept link whose trust (`maxAgeMs`) has run out is read again
 * at its next request and keeps its place if it still holds: made to compete for it again, a
 * link no more popular than the rest (a million clicked evenly) lost it, and was read from the
 * store at every request after.
 */
export function withLinkCache<S extends LinkStore & { changes?: ChangeFeed }>(
  store: S,
  options: LinkCacheOptions,
): CachedLinkStore & Managed<S> {
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
  // Moves at every forget and drop: a store read begun before it is not cached.
  let epoch = 0;
  // The change feed lost track: nothing is cached until it is back.
  let feedLost = false;

  /** Until when (whole seconds from `origin`) an entry kept at `at` is trusted. */
  const trustedUntil = (at: number) => Math.floor((at + maxAgeMs - origin) / 1000);
  /**
   * The `Location` of a link the cache may keep at `at` (active, enabled, its URL parseable), or
   * undefined. A broken stored URL is never kept: the redirect's own parse fails and reports it.
   */
  const cacheableHref = (link: Link, at: number): string | undefined => {
    if (link.disabled || !isActive(link.expiresAt, at)) return undefined;
    try {
      return new URL(link.originalUrl).href;
    } catch {
      return undefined;
    }
  };

  /** Keeps a link just read from the store, if it is worth a place. */
  const remember = (codeKey: string, hash: number, link: Link, href: string, at: number) => {
    if (at < origin) return; // the clock went back: no whole seconds to count
    if (table.isFull()) {
      const evict = table.victim();
      if (evict !== -1) {
        if (sketch.estimate(hash) <= sketch.estimate(table.hashAt(evict))) return;
        table.remove(evict);
      }
    }
    table.insert(codeKey, hash, link, href, trustedUntil(at));
  };

  /**
   * A link just read from the store, as the redirect gets it: an active one is kept if worth a
   * place, and its URL is parsed once for both the cache and this redirect's `Location`.
   */
  const settle = (
    codeKey: string,
    hash: number,
    found: Link | undefined,
    startedAt: number,
    held: boolean,
  ): Link | undefined => {
    const at = now();
    const href = found === undefined ? undefined : cacheableHref(found, at);
    if (held && href === undefined) {
      // Gone, disabled or expired since it was kept (edited by hand, say): its place goes.
      const slot = table.find(codeKey, hash);
      if (slot !== -1) table.remove(slot);
    }
    if (found === undefined || href === undefined) return found;
    if (startedAt === epoch && !feedLost && at >= origin) {
      if (!held || !table.renew(codeKey, hash, found, href, trustedUntil(at))) remember(codeKey, hash, found, href, at);
    }
    return new ReadLink(found, href);
  };

  /** The store's redirect read: its own `lookup` (synchronous on SQLite) when it has one. */
  const read = (codeKey: string): Link | undefined | Promise<Link | undefined> => {
    try {
      return store.lookup ? store.lookup(codeKey) : store.findByCodeKey(codeKey);
    } catch (error) {
      return Promise.reject(error); // the redirect path handles a failed read as a rejection
    }
  };

  const lookup = (codeKey: string): Link | undefined | Promise<Link | undefined> => {
    if (maxEntries <= 0) return read(codeKey);
    const hash = hashOf(codeKey);
    sketch.count(hash);
    const slot = table.find(codeKey, hash);
    // A kept link whose trust ran out is read again but keeps its place meanwhile (`renew`).
    let held = false;
    if (slot !== -1) {
      const at = now();
      if (at >= table.expiresAt(slot)) table.remove(slot);
      else if (at < origin + table.trustedUntilAt(slot) * 1000) {
        table.touch(slot);
        return table.linkAt(slot, codeKey);
      } else held = true;
    }
    const startedAt = epoch;
    const found = read(codeKey);
    if (found instanceof Promise) return found.then((link) => settle(codeKey, hash, link, startedAt, held));
    return settle(codeKey, hash, found, startedAt, held);
  };

  const admit = (links: readonly Link[], readSince: number) => {
    let kept = 0;
    if (maxEntries <= 0 || feedLost || now() < origin) return { kept, room: false };
    if (readSince !== epoch) return { kept, room: !table.isFull() };
    const at = now();
    for (const link of links) {
      if (table.isFull()) return { kept, room: false };
      const href = cacheableHref(link, at);
      if (href === undefined) continue;
      const hash = hashOf(link.codeKey);
      if (table.find(link.codeKey, hash) !== -1) continue;
      if (table.insert(link.codeKey, hash, link, href, trustedUntil(at))) kept += 1;
    }
    return { kept, room: !table.isFull() };
  };

  const forget = (codeKey: string) => {
    epoch += 1;
    const slot = table.find(codeKey, hashOf(codeKey));
    if (slot !== -1) table.remove(slot);
  };
  const dropAll = () => {
    epoch += 1;
    table.clear();
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
      return table.size;
    },
    get bytes() {
      return maxEntries <= 0 ? 0 : table.bytes + sketch.bytes;
    },
    create: (link, at) => store.create(link, at),
    lookup,
    forget,
    admit,
    reserve: () => {
      if (maxEntries > 0) table.reserve(TYPICAL_RECORD_BYTES);
    },
    epoch: () => epoch,
    findByCodeKey: (codeKey) => store.findByCodeKey(codeKey),
    ping: () => store.ping(),
    close: () => {
      unsubscribe?.();
      dropAll();
      return store.close();
    },
  } as CachedLinkStore & Managed<S>;
}
