import { describe, expect, it, vi } from 'vitest';
import type { Link } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { withLinkCache } from '../../server/stores/cache/link-cache.js';

// What happens when a kept link's trust (`CACHE_SECONDS`) runs out: it is read again, and keeps
// its place when it still holds, or makes way for what the store says now.

const NOW = Date.UTC(2026, 10, 26, 12);
const AGE_MS = 60_000;
const ALL = { all: true } as const;
const link = (code: string): Link => ({
  code,
  codeKey: code,
  originalUrl: `https://example.com/articles/${code}`,
  createdAt: NOW,
  expiresAt: NOW + 7 * 86_400_000,
});

/** A cache over a memory store with counted reads, on a clock the test moves. */
function setup(maxBytes?: number) {
  const store = createMemoryLinkStore();
  const reads = vi.fn(store.findByCodeKey);
  const clock = { now: NOW };
  const cached = withLinkCache(
    { ...store, findByCodeKey: reads },
    { maxEntries: 100_000, maxBytes, maxAgeMs: AGE_MS, now: () => clock.now },
  );
  return { store, cached, reads, clock };
}

describe('a kept link whose trust ran out', () => {
  it('keeps its place in a full cache when unchanged, so the store is read once, not at every request', async () => {
    const { store, cached, reads, clock } = setup(64 * 1024);
    const links = Array.from({ length: 2000 }, (_, i) => link(`c${i}`));
    for (const each of links) await store.create(each, NOW);
    // Filled in bulk, as warming does, until no byte is left: every link as often asked as any.
    expect(cached.admit(links, cached.epoch()).room).toBe(false);
    const kept = cached.size;
    expect(kept).toBeLessThan(links.length);
    const code = 'c0'; // the first of the page, so kept
    expect(cached.lookup(code)).toMatchObject({ code });
    expect(reads).not.toHaveBeenCalled();
    clock.now += AGE_MS;
    reads.mockClear();
    expect(await cached.lookup(code)).toMatchObject({ code, originalUrl: `https://example.com/articles/${code}` });
    expect(reads).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 5; i++) expect(cached.lookup(code)).toMatchObject({ code });
    expect(reads).toHaveBeenCalledTimes(1);
    expect(cached.size).toBe(kept);
  });

  it('gives way to its new target when it was edited behind the cache (by hand in the database)', async () => {
    const { store, cached, reads, clock } = setup();
    await store.create(link('moved'), NOW);
    await cached.lookup('moved');
    await store.updateLink('moved', ALL, { originalUrl: 'https://example.org/new-home' }, NOW);
    expect(cached.lookup('moved')).toMatchObject({ originalUrl: 'https://example.com/articles/moved' });
    clock.now += AGE_MS;
    expect(await cached.lookup('moved')).toMatchObject({ originalUrl: 'https://example.org/new-home' });
    expect(cached.lookup('moved')).toMatchObject({ originalUrl: 'https://example.org/new-home' });
    expect(reads).toHaveBeenCalledTimes(2);
    expect(cached.size).toBe(1);
  });

  it('goes when the link was deleted or disabled behind the cache', async () => {
    const { store, cached, reads, clock } = setup();
    await store.create(link('gone'), NOW);
    await store.create(link('off'), NOW);
    await cached.lookup('gone');
    await cached.lookup('off');
    expect(cached.size).toBe(2);
    await store.deleteLink('gone', ALL, NOW);
    await store.updateLink('off', ALL, { disabled: true }, NOW);
    reads.mockClear();
    clock.now += AGE_MS;
    expect(await cached.lookup('gone')).toBeUndefined();
    expect(await cached.lookup('off')).toMatchObject({ code: 'off', disabled: true });
    expect(cached.size).toBe(0);
    expect(await cached.lookup('off')).toMatchObject({ disabled: true });
    expect(reads).toHaveBeenCalledTimes(3); // a disabled link is never kept: each request reads it
  });
});
