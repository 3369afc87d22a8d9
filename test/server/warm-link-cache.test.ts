import { describe, expect, it, vi } from 'vitest';
import type { Link, LinkStore, RecentLinksCursor } from '../../core/store/link-store.js';
import { withLinkCache } from '../../server/stores/cache/link-cache.js';
import { warmLinkCache } from '../../server/stores/cache/warm-link-cache.js';
import { createListeners } from '../../server/stores/change-feed.js';

const NOW = Date.UTC(2026, 0, 31, 12);
const link = (i: number, originalUrl = `https://example.com/${i}`): Link => ({
  code: `w${i}`,
  codeKey: `w${i}`,
  originalUrl,
  // Three links to a millisecond, as an import makes them: the cursor must not lose or repeat any.
  createdAt: NOW - 10_000_000 + Math.floor(i / 3),
  expiresAt: NOW + 86_400_000,
});

/**
 * A store of `count` links whose `recentActiveLinks` pages through them newest first, as SQLite
 * and PostgreSQL do; `duringRead` runs while a page is being read (after the page is taken,
 * before it is answered), as a change made by a request served meanwhile would.
 */
function fakeStore(count: number, duringRead: (call: number) => void = () => {}) {
  const byKey = new Map<string, Link>();
  for (let i = 0; i < count; i++) byKey.set(`w${i}`, link(i));
  const newestFirst = [...byKey.values()].sort((a, b) =>
    a.createdAt !== b.createdAt ? b.createdAt - a.createdAt : a.codeKey < b.codeKey ? 1 : -1,
  );
  const after = (one: Link, before: RecentLinksCursor) =>
    one.createdAt < before.createdAt || (one.createdAt === before.createdAt && one.codeKey < before.codeKey);
  const recentActiveLinks = vi.fn(async (limit: number, now: number, before?: RecentLinksCursor) => {
    const page = newestFirst
      .map((one) => byKey.get(one.codeKey) as Link)
      .filter((one) => one.expiresAt > now && !one.disabled && (before === undefined || after(one, before)))
      .slice(0, limit);
    await new Promise((resolve) => setImmediate(resolve));
    duringRead(recentActiveLinks.mock.calls.length);
    return page;
  });
  const findByCodeKey = vi.fn(async (codeKey: string) => byKey.get(codeKey));
  const feed = createListeners(
    () => {},
    () => {},
  );
  const store = {
    create: async () => ({ created: false as const, holderExpiresAt: 0 }),
    findByCodeKey,
    recentActiveLinks,
    ping: async () => {},
    close: async () => {},
    changes: { subscribe: feed.subscribe },
  } satisfies LinkStore & { changes: unknown };
  return { store, byKey, recentActiveLinks, findByCodeKey };
}

const cacheOver = (store: LinkStore, maxEntries: number) =>
  withLinkCache(store, { maxEntries, maxAgeMs: 60_000, now: () => NOW });

describe('warming the link cache', () => {
  it('admits all 2,500 links of a large cache in pages of 1000, each once, and serves them without a read', async () => {
    const { store, recentActiveLinks, findByCodeKey } = fakeStore(2500);
    const cache = cacheOver(store, 10_000);
    const reserve = vi.spyOn(cache, 'reserve');
    const warmed = await warmLinkCache(store, cache, () => NOW);
    expect(warmed.links).toBe(2500);
    expect(cache.size).toBe(2500);
    expect(recentActiveLinks.mock.calls.map(([limit]) => limit)).toEqual([1000, 1000, 1000]);
    expect(reserve).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 2500; i++) expect(cache.lookup(`w${i}`)).toEqual(link(i));
    expect(findByCodeKey).not.toHaveBeenCalled();
  });

  it('stops reading once the cache is full, keeping the newest', async () => {
    const { store, recentActiveLinks } = fakeStore(2500);
    const cache = cacheOver(store, 1500);
    const warmed = await warmLinkCache(store, cache, () => NOW);
    expect(warmed.links).toBe(1500);
    expect(recentActiveLinks).toHaveBeenCalledTimes(2);
    expect(cache.lookup('w2499')).toEqual(link(2499)); // the newest is held
    expect(cache.lookup('w0')).toBeInstanceOf(Promise); // the oldest is not
  });

  it('reserves the budget only when a first page is full', async () => {
    for (const [count, reserves] of [
      [0, 0],
      [999, 0],
      [1000, 1],
      [2500, 1],
    ] as const) {
      const { store } = fakeStore(count);
      const cache = cacheOver(store, 10_000);
      const reserve = vi.spyOn(cache, 'reserve');
      expect((await warmLinkCache(store, cache, () => NOW)).links).toBe(count);
      expect(reserve, `${count} links`).toHaveBeenCalledTimes(reserves);
    }
  });

  it('returns at once from a store without recentActiveLinks, leaving the cache cold', async () => {
    const { store } = fakeStore(10);
    const { recentActiveLinks: _, ...rest } = store;
    const withoutOp: LinkStore = rest;
    const cache = cacheOver(withoutOp, 100);
    expect((await warmLinkCache(withoutOp, cache, () => NOW)).links).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('never serves a link stale when it changes while its page is read or after it was kept', async () => {
    // w2400 is on the first page and changes after the page was kept; w1200 is on the second
    // page and changes while that page is being read (the page still has its old target).
    let cache: ReturnType<typeof cacheOver> | undefined;
    const change = (i: number) => {
      fake.byKey.set(`w${i}`, link(i, `https://example.com/changed-${i}`));
      cache?.forget(`w${i}`);
    };
    const fake = fakeStore(2500, (call) => {
      if (call === 2) {
        change(2400);
        change(1200);
      }
    });
    cache = cacheOver(fake.store, 10_000);
    const warmed = await warmLinkCache(fake.store, cache, () => NOW);
    // The second page, read across a change, is not kept; the first and third are, and w2400
    // was forgotten from the first after it was kept.
    expect(warmed.links).toBe(1000 + 500);
    expect(cache.size).toBe(1000 - 1 + 500);
    for (const i of [2400, 1200]) {
      expect(cache.lookup(`w${i}`)).toBeInstanceOf(Promise); // uncached: read from the store
      expect((await cache.lookup(`w${i}`))?.originalUrl).toBe(`https://example.com/changed-${i}`);
    }
    // Every link answers what the store holds now, cached or not.
    for (let i = 0; i < 2500; i++) expect(await cache.lookup(`w${i}`)).toEqual(fake.byKey.get(`w${i}`));
  });
});
