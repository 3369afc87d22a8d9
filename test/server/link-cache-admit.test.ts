import { describe, expect, it, vi } from 'vitest';
import { isPasswordProtected } from '../../core/passwords/protected-link.js';
import type { LocatedLink } from '../../core/redirect/resolve.js';
import type { Link } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createCompactLinkTable } from '../../server/stores/cache/compact-link-table.js';
import { hashOf } from '../../server/stores/cache/frequency-sketch.js';
import { withLinkCache } from '../../server/stores/cache/link-cache.js';
import { createListeners } from '../../server/stores/change-feed.js';

// Bulk admission (how the server warms its cache) and taking the whole byte budget at once:
// what a warmed cache holds must be exactly what a clicked one would, and no more than its budget.
const NOW = Date.UTC(2026, 0, 31, 12);
const link = (code: string, overrides: Partial<Link> = {}): Link => ({
  code,
  codeKey: code,
  originalUrl: `https://example.com/${code}`,
  createdAt: NOW - 1000,
  expiresAt: NOW + 86_400_000,
  ...overrides,
});
const links = (count: number, prefix = 'w') => Array.from({ length: count }, (_, i) => link(`${prefix}${i}`));

/** A cache over a memory store with counted reads and a change feed the test drives. */
function setup(options: { maxEntries?: number; maxBytes?: number } = {}) {
  const store = createMemoryLinkStore();
  const reads = vi.fn(store.findByCodeKey);
  const feed = createListeners(
    () => {},
    () => {},
  );
  const cached = withLinkCache(
    { ...store, findByCodeKey: reads, changes: { subscribe: feed.subscribe } },
    { maxEntries: options.maxEntries ?? 100, maxBytes: options.maxBytes, maxAgeMs: 60_000, now: () => NOW },
  );
  return { store, cached, reads, feed };
}

describe('admitting links in bulk', () => {
  it('keeps active links until full, then says there is no room, and evicts none it held', async () => {
    const { store, cached, reads } = setup({ maxEntries: 3 });
    await store.create(link('held'), NOW);
    await cached.lookup('held');
    expect(reads).toHaveBeenCalledTimes(1);
    expect(cached.admit(links(1), cached.epoch())).toEqual({ kept: 1, room: true });
    expect(cached.admit(links(5, 'x'), cached.epoch())).toEqual({ kept: 1, room: false });
    expect(cached.size).toBe(3);
    expect(cached.lookup('held')).toEqual(link('held'));
    expect(cached.lookup('w0')).toEqual(link('w0'));
    expect(cached.lookup('x0')).toEqual(link('x0'));
    expect(reads).toHaveBeenCalledTimes(1);
    expect(cached.admit(links(1, 'y'), cached.epoch())).toEqual({ kept: 0, room: false });
  });

  it('skips disabled, expired, broken and already cached links, keeping the rest', async () => {
    const { store, cached, reads } = setup();
    await store.create(link('held'), NOW);
    await cached.lookup('held');
    const page = [
      link('off', { disabled: true }),
      link('gone', { expiresAt: NOW }),
      link('broken', { originalUrl: 'not a url' }),
      link('held', { originalUrl: 'https://example.com/other' }),
      link('good'),
    ];
    expect(cached.admit(page, cached.epoch())).toEqual({ kept: 1, room: true });
    expect(cached.size).toBe(2);
    expect(cached.lookup('held')).toEqual(link('held')); // what was cached stays as it was
    for (const skipped of ['off', 'gone', 'broken']) expect(cached.lookup(skipped)).toBeInstanceOf(Promise);
    expect(reads).toHaveBeenCalledTimes(4);
  });

  it('keeps nothing read before a forget, then keeps a page read after it', async () => {
    const { cached, feed } = setup();
    const readSince = cached.epoch();
    cached.forget('w1'); // changed while the page was being read: the page may hold the old w1
    expect(cached.admit(links(3), readSince)).toEqual({ kept: 0, room: true });
    feed.emit({ kind: 'changed', codeKeys: ['other'] }); // another process's change moves it too
    expect(cached.epoch()).toBeGreaterThan(readSince + 1);
    expect(cached.admit(links(3), readSince + 1)).toEqual({ kept: 0, room: true });
    expect(cached.size).toBe(0);
    expect(cached.admit(links(3), cached.epoch())).toEqual({ kept: 3, room: true });
  });

  it('keeps nothing while the change feed has lost track, nor with the cache off', () => {
    const { cached, feed } = setup();
    feed.emit({ kind: 'lost' });
    expect(cached.admit(links(3), cached.epoch())).toEqual({ kept: 0, room: false });
    const off = setup({ maxEntries: 0 }).cached;
    expect(off.admit(links(3), off.epoch())).toEqual({ kept: 0, room: false });
    off.reserve();
    expect(off.size).toBe(0);
    expect(off.bytes).toBe(0);
  });

  it('serves an admitted link at once, without a store read, with its Location', async () => {
    const { store, cached, reads } = setup();
    const odd = link('odd', { originalUrl: 'https://EXAMPLE.com:443/a b?q=한' });
    const locked = link('locked', { passwordHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA' });
    await store.create(odd, NOW);
    expect(cached.admit([odd, locked], cached.epoch())).toEqual({ kept: 2, room: true });
    const found = cached.lookup('odd') as LocatedLink;
    expect(found).not.toBeInstanceOf(Promise);
    expect(found).toEqual(odd);
    expect(found.location).toBe(new URL(odd.originalUrl).href);
    expect(found.location).toBe('https://example.com/a%20b?q=%ED%95%9C');
    // A protected link is cached as protected (not its hash), so the redirect still asks.
    expect(isPasswordProtected(cached.lookup('locked') as Link)).toBe(true);
    expect(reads).not.toHaveBeenCalled();
  });
});

describe('reserving the whole byte budget', () => {
  it('stays within maxBytes, admits until full, and evicts and refills after', async () => {
    const maxBytes = 256 * 1024;
    const { store, cached, reads } = setup({ maxEntries: 100_000, maxBytes });
    cached.reserve();
    expect(cached.bytes).toBeLessThanOrEqual(maxBytes);
    expect(cached.bytes).toBeGreaterThan(maxBytes / 2); // taken at once, not grown into
    let admitted = 0;
    for (let page = 0; page < 100; page++) {
      const { kept, room } = cached.admit(links(500, `p${page}-`), cached.epoch());
      admitted += kept;
      expect(cached.bytes).toBeLessThanOrEqual(maxBytes);
      if (!room) break;
    }
    expect(admitted).toBeGreaterThan(1000);
    expect(cached.size).toBe(admitted);
    // Clicks on links it does not hold: one clicked more than a victim takes its place (TinyLFU),
    // and long ones fill the arena, so records are evicted and the arena compacted.
    for (let i = 0; i < 3000; i++) {
      const one = link(`c${i}`, { originalUrl: `https://example.com/${'l'.repeat(i % 300)}/${i}` });
      await store.create(one, NOW);
      for (let n = 0; n < 3; n++) expect(await cached.lookup(one.codeKey)).toEqual(one);
      expect(cached.bytes).toBeLessThanOrEqual(maxBytes);
    }
    // Some clicked links got in (each was read once, then served from memory), within the budget.
    expect(reads.mock.calls.length).toBeLessThan(3 * 3000);
    expect(cached.bytes).toBeLessThanOrEqual(maxBytes);
  });
});

describe('the compact link table, reserved', () => {
  const linkOf = (key: string, n: number): Link => ({
    code: key,
    codeKey: key,
    originalUrl: `https://example.com/${'r'.repeat(n % 200)}${n}`,
    createdAt: 1000 + n,
    expiresAt: 2_000_000 + n,
  });

  it('keeps bytes within maxBytes through reserve and insert, evict and compact cycles, every link intact', () => {
    for (const [maxEntries, maxBytes] of [
      [10, 64 * 1024],
      [5000, 200 * 1024],
      [1_000_000, 1024 * 1024],
    ] as const) {
      const table = createCompactLinkTable({ maxEntries, maxBytes });
      for (let n = 0; n < 20; n++)
        table.insert(`pre${n}`, hashOf(`pre${n}`), linkOf(`pre${n}`, n), linkOf(`pre${n}`, n).originalUrl, 1);
      table.reserve(90);
      expect(table.bytes).toBeLessThanOrEqual(maxBytes);
      for (let n = 0; n < Math.min(20, maxEntries); n++) {
        const slot = table.find(`pre${n}`, hashOf(`pre${n}`));
        if (maxEntries >= 20) expect(table.linkAt(slot, `pre${n}`)).toEqual(linkOf(`pre${n}`, n));
      }
      const model = new Map<string, Link>();
      for (let n = 0; n < 20_000; n++) {
        const key = `k${n % 7000}`;
        if (n % 5 === 4) {
          const slot = table.find(key, hashOf(key));
          if (slot !== -1) table.remove(slot);
          model.delete(key);
          continue;
        }
        const one = linkOf(key, n);
        if (table.insert(key, hashOf(key), one, one.originalUrl, 1)) model.set(key, one);
        else model.delete(key);
        expect(table.bytes).toBeLessThanOrEqual(maxBytes);
      }
      expect(table.size).toBeGreaterThan(0);
      expect(table.size).toBeLessThanOrEqual(maxEntries);
      let present = 0;
      for (const [key, one] of model) {
        const slot = table.find(key, hashOf(key));
        if (slot === -1) continue; // evicted
        present++;
        expect(table.linkAt(slot, key)).toEqual(one);
      }
      expect(present).toBeGreaterThan(0);
    }
  });

  it('gives a table too small to reserve in the budget it had, and it still works', () => {
    const table = createCompactLinkTable({ maxEntries: 100, maxBytes: 2048 });
    table.reserve(90);
    expect(table.bytes).toBeLessThanOrEqual(2048);
    const one = linkOf('tiny', 1);
    table.insert('tiny', hashOf('tiny'), one, one.originalUrl, 1);
    const slot = table.find('tiny', hashOf('tiny'));
    if (slot !== -1) expect(table.linkAt(slot, 'tiny')).toEqual(one);
    expect(table.bytes).toBeLessThanOrEqual(2048);
  });
});
