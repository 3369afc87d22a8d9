import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { locationOf } from '../../core/redirect/resolve.js';
import type { Link } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { withLinkCache } from '../../server/stores/cache/link-cache.js';
import { createListeners } from '../../server/stores/change-feed.js';

const NOW = Date.UTC(2026, 0, 31, 12);
const link = (code: string, expiresAt: number, originalUrl = `https://example.com/${code}`): Link => ({
  code,
  codeKey: code,
  originalUrl,
  createdAt: NOW,
  expiresAt,
});

/** A memory store whose reads are counted, behind a cache on a clock the test moves. */
function setup(maxEntries = 100, maxAgeMs = 60_000) {
  const store = createMemoryLinkStore();
  const reads = vi.fn(store.findByCodeKey);
  const clock = { now: NOW };
  const cached = withLinkCache({ ...store, findByCodeKey: reads }, { maxEntries, maxAgeMs, now: () => clock.now });
  return { store, cached, reads, clock };
}

describe('the link cache', () => {
  it('answers an active link from memory after the first read', async () => {
    const { store, cached, reads } = setup();
    await store.create(link('hot', NOW + 1000), NOW);
    for (let i = 0; i < 5; i++) expect(await cached.lookup('hot')).toEqual(link('hot', NOW + 1000));
    expect(reads).toHaveBeenCalledTimes(1);
    expect(cached.size).toBe(1);
  });

  it('never caches a miss: a link created elsewhere is found on the next read', async () => {
    const { store, cached, reads } = setup();
    expect(await cached.lookup('new')).toBeUndefined();
    await store.create(link('new', NOW + 1000), NOW); // another instance, straight to the database
    expect(await cached.lookup('new')).toEqual(link('new', NOW + 1000));
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('never caches an expired link: a code retaken elsewhere is found on the next read', async () => {
    const { store, cached, reads } = setup();
    await store.create(link('old', NOW - 1), NOW - 1000);
    expect((await cached.lookup('old'))?.expiresAt).toBe(NOW - 1);
    await store.create(link('old', NOW + 5000, 'https://example.com/new'), NOW);
    expect((await cached.lookup('old'))?.originalUrl).toBe('https://example.com/new');
    expect(reads).toHaveBeenCalledTimes(2);
    expect(cached.size).toBe(1); // the new holder is active, so it is kept
  });

  it('drops an entry the moment its link expires, and reads the store again', async () => {
    const { store, cached, reads, clock } = setup();
    await store.create(link('brief', NOW + 1000), NOW);
    await cached.lookup('brief');
    clock.now = NOW + 999;
    await cached.lookup('brief');
    expect(reads).toHaveBeenCalledTimes(1);
    clock.now = NOW + 1000;
    await store.create(link('brief', NOW + 9000, 'https://example.com/next'), NOW + 1000);
    expect((await cached.lookup('brief'))?.originalUrl).toBe('https://example.com/next');
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('reads the store again once an entry is older than the maximum age', async () => {
    const { store, cached, reads, clock } = setup(100, 60_000);
    await store.create(link('long', NOW + 86_400_000), NOW);
    await cached.lookup('long');
    clock.now = NOW + 59_999;
    await cached.lookup('long');
    expect(reads).toHaveBeenCalledTimes(1);
    clock.now = NOW + 60_000;
    await cached.lookup('long');
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('keeps at most maxEntries links, evicting the least recently used', async () => {
    const { store, cached, reads } = setup(2);
    for (const code of ['a', 'b', 'c']) await store.create(link(code, NOW + 1000), NOW);
    await cached.lookup('a');
    await cached.lookup('b');
    await cached.lookup('a'); // a is now the most recently used
    await cached.lookup('c'); // full: c is only noted on its first miss
    await cached.lookup('c'); // and let in on its second, evicting b
    expect(cached.size).toBe(2);
    reads.mockClear();
    await cached.lookup('a');
    await cached.lookup('c');
    expect(reads).not.toHaveBeenCalled();
    await cached.lookup('b');
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('once full, lets a link in only if it is asked for more than the one it would evict', async () => {
    const { store, cached, reads } = setup(100);
    for (let i = 0; i < 1100; i++) await store.create(link(`k${i}`, NOW + 1000), NOW);
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 100; i++) await cached.lookup(`k${i}`); // the links people click
    }
    for (let i = 100; i < 1100; i++) await cached.lookup(`k${i}`); // a crawler, each link once
    reads.mockClear();
    for (let i = 0; i < 100; i++) await cached.lookup(`k${i}`);
    expect(reads).not.toHaveBeenCalled();
    // A crawled link that people start clicking gets in once it is asked for more than the least
    // recently used one.
    for (let i = 0; i < 12; i++) await cached.lookup('k500');
    reads.mockClear();
    await cached.lookup('k500');
    expect(reads).not.toHaveBeenCalled();
    expect(cached.size).toBe(100);
  });

  it('answers a cached link at once (not as a promise) through lookup', async () => {
    const { store, cached } = setup();
    await store.create(link('now', NOW + 1000), NOW);
    expect(cached.lookup('now')).toBeInstanceOf(Promise);
    await cached.lookup('now');
    expect(cached.lookup('now')).toEqual(link('now', NOW + 1000));
    expect(cached.lookup('missing')).toBeInstanceOf(Promise);
  });

  it("keeps an owned link's owner, after its rules too: a click's webhooks are chosen by it", async () => {
    const { store, cached, reads } = setup();
    const owned = { ...link('owned', NOW + 1000), ownerId: 2 ** 32 - 1 };
    const ruled = { ...link('ruled', NOW + 1000), ownerId: 7, maxVisits: 3, forwardQuery: true };
    const nobodys = link('nobodys', NOW + 1000);
    for (const one of [owned, ruled, nobodys]) await store.create(one, NOW);
    for (const one of [owned, ruled, nobodys]) await cached.lookup(one.codeKey);
    const hits = [owned, ruled, nobodys].map((one) => cached.lookup(one.codeKey) as Link);
    expect(reads).toHaveBeenCalledTimes(3);
    expect(hits).toEqual([owned, ruled, nobodys]);
    expect(hits.map((hit) => hit.ownerId)).toEqual([2 ** 32 - 1, 7, undefined]);
  });

  it('caches nothing with maxEntries 0', async () => {
    const { store, cached, reads } = setup(0);
    await store.create(link('x', NOW + 1000), NOW);
    await cached.lookup('x');
    await cached.lookup('x');
    expect(reads).toHaveBeenCalledTimes(2);
    expect(cached.size).toBe(0);
  });

  it('answers every read exactly as the store would, whatever happens in between (model check)', async () => {
    const code = fc.constantFrom('a', 'b', 'c', 'd');
    const step = fc.oneof(
      fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 5000 }) }),
      fc.record({ kind: fc.constant('read' as const), code }),
      fc.record({ kind: fc.constant('create' as const), code, life: fc.integer({ min: 1, max: 8000 }), n: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 4000 }),
        fc.array(step, { maxLength: 60 }),
        async (maxEntries, maxAgeMs, steps) => {
          const { store, cached, clock } = setup(maxEntries, maxAgeMs);
          for (const s of steps) {
            if (s.kind === 'advance') clock.now += s.ms;
            else if (s.kind === 'create') {
              // Through the store itself, as another instance would: the cache hears nothing.
              await store.create(link(s.code, clock.now + s.life, `https://example.com/${s.n}`), clock.now);
            } else {
              expect(await cached.lookup(s.code)).toEqual(await store.findByCodeKey(s.code));
            }
          }
          expect(cached.size).toBeLessThanOrEqual(maxEntries);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays exact and within its byte budget with long, Unicode, owned and mixed-case links (model check)', async () => {
    // Codes whose spelling differs from their key, Hangul codes, and targets from short ASCII to
    // a few thousand percent-encoded bytes: evictions by bytes and compactions of the arena. An
    // owned link's hit carries its owner: a click's webhooks are chosen by it.
    const code = fc.constantFrom('a', 'Promo', '한글', 'x'.repeat(64), '가'.repeat(64), 'b', 'c', 'd', 'e', 'f');
    const target = fc.oneof(
      fc.nat().map((n) => `https://example.com/${n}`),
      fc.integer({ min: 1, max: 1500 }).map((n) => `https://example.com/${'q'.repeat(n)}`),
      fc.integer({ min: 1, max: 400 }).map((n) => `https://한국.example/${'가'.repeat(n)}?q=${n}`),
    );
    const step = fc.oneof(
      fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3000 }) }),
      fc.record({ kind: fc.constant('read' as const), code }),
      fc.record({
        kind: fc.constant('create' as const),
        code,
        target,
        life: fc.integer({ min: 1, max: 9000 }),
        // The owner ends a record (after any rules): ids up to u32's largest, or nobody's link.
        owner: fc.option(fc.oneof(fc.constantFrom(1, 2 ** 32 - 1), fc.nat()), { nil: undefined }),
        rules: fc.boolean(),
      }),
    );
    const maxBytes = 16 * 1024; // a few long links' worth, its frequency table included
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 80 }), async (steps) => {
        const store = createMemoryLinkStore();
        const clock = { now: NOW };
        const cached = withLinkCache(store, { maxEntries: 8, maxBytes, maxAgeMs: 5000, now: () => clock.now });
        for (const s of steps) {
          if (s.kind === 'advance') clock.now += s.ms;
          else if (s.kind === 'create') {
            const key = s.code.toLowerCase();
            await store.create(
              {
                code: s.code,
                codeKey: key,
                originalUrl: s.target,
                createdAt: clock.now,
                expiresAt: clock.now + s.life,
                ...(s.owner !== undefined && { ownerId: s.owner }),
                ...(s.rules && { maxVisits: 10, forwardQuery: true }),
              },
              clock.now,
            );
          } else {
            const key = s.code.toLowerCase();
            const found = await cached.lookup(key);
            expect(found).toEqual(await store.findByCodeKey(key));
            if (found) expect(locationOf(found)).toBe(new URL(found.originalUrl).href);
          }
          expect(cached.bytes).toBeLessThanOrEqual(maxBytes);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers a hit with the ASCII form it keeps, and counts its bytes', async () => {
    const { store, cached } = setup();
    const hangul = { ...link('Hangul', NOW + 1000, 'https://한국.example/가'), codeKey: 'hangul' };
    await store.create(hangul, NOW);
    await cached.lookup('hangul');
    const hit = cached.lookup('hangul') as Link;
    expect(hit).toEqual(hangul);
    expect(locationOf(hit)).toBe('https://xn--3e0b707e.example/%EA%B0%80');
    expect(cached.bytes).toBeGreaterThan(0);
  });
});

describe('the link cache, when links change', () => {
  /** A cache on a memory store with a change feed the test drives. */
  function setupWithFeed() {
    const store = createMemoryLinkStore();
    const reads = vi.fn(store.findByCodeKey);
    const feed = createListeners(
      () => {},
      () => {},
    );
    const cached = withLinkCache(
      { ...store, findByCodeKey: reads, changes: { subscribe: feed.subscribe } },
      { maxEntries: 100, maxAgeMs: 60_000, now: () => NOW },
    );
    return { store, cached, reads, feed };
  }

  it('never caches a disabled link, and reads the whole record (owner, status) from the store', async () => {
    const { store, cached, reads } = setupWithFeed();
    await store.create({ ...link('owned', NOW + 10_000), ownerId: 7 }, NOW);
    await store.updateLink('owned', { all: true }, { disabled: true }, NOW);
    await cached.lookup('owned');
    expect((await cached.lookup('owned'))?.disabled).toBe(true);
    expect(reads).toHaveBeenCalledTimes(2);
    await store.updateLink('owned', { all: true }, { disabled: false }, NOW);
    await cached.lookup('owned');
    await cached.lookup('owned'); // now cached
    expect(reads).toHaveBeenCalledTimes(3);
    const whole = await cached.findByCodeKey('owned');
    expect(whole?.ownerId).toBe(7);
    expect(whole?.disabled).not.toBe(true);
    expect(reads).toHaveBeenCalledTimes(4);
  });

  it('forgets a link it patches or deletes itself', async () => {
    const { cached } = setupWithFeed();
    await cached.create(link('mine', NOW + 10_000), NOW);
    await cached.lookup('mine');
    await cached.updateLink('mine', { all: true }, { disabled: true }, NOW);
    expect((await cached.lookup('mine'))?.disabled).toBe(true);
    await cached.deleteLink('mine', { all: true }, NOW);
    expect(await cached.lookup('mine')).toBeUndefined();
  });

  it('forgets a link the feed says another process changed, and nothing else', async () => {
    const { store, cached, reads, feed } = setupWithFeed();
    await store.create(link('a', NOW + 10_000), NOW);
    await store.create(link('b', NOW + 10_000), NOW);
    await cached.lookup('a');
    await cached.lookup('b');
    await store.updateLink('a', { all: true }, { originalUrl: 'https://elsewhere.example/' }, NOW); // another instance
    feed.emit({ kind: 'changed', codeKeys: ['a'] });
    expect((await cached.lookup('a'))?.originalUrl).toBe('https://elsewhere.example/');
    await cached.lookup('b');
    expect(reads).toHaveBeenCalledTimes(3);
  });

  it('drops everything and caches nothing while the feed has lost track, then caches again', async () => {
    const { store, cached, reads, feed } = setupWithFeed();
    await store.create(link('a', NOW + 10_000), NOW);
    await cached.lookup('a');
    feed.emit({ kind: 'lost' });
    expect(cached.size).toBe(0);
    await cached.lookup('a');
    await cached.lookup('a');
    expect(reads).toHaveBeenCalledTimes(3);
    feed.emit({ kind: 'restored' });
    await cached.lookup('a');
    await cached.lookup('a');
    expect(reads).toHaveBeenCalledTimes(4);
  });

  it('does not cache a read that was under way when its link was changed', async () => {
    const store = createMemoryLinkStore();
    const feed = createListeners(
      () => {},
      () => {},
    );
    let answer: (() => void) | undefined;
    const slowRead = async (codeKey: string) => {
      const found = await store.findByCodeKey(codeKey); // read before the change…
      await new Promise<void>((resolve) => {
        answer = resolve;
      });
      return found; // …answered after it
    };
    const cached = withLinkCache(
      { ...store, findByCodeKey: slowRead, changes: { subscribe: feed.subscribe } },
      { maxEntries: 100, maxAgeMs: 60_000, now: () => NOW },
    );
    await store.create(link('slow', NOW + 10_000), NOW);
    const reading = cached.lookup('slow');
    await new Promise((resolve) => setTimeout(resolve, 0));
    await store.deleteLink('slow', { all: true }, NOW);
    feed.emit({ kind: 'changed', codeKeys: ['slow'] });
    answer?.();
    expect(await reading).toBeDefined();
    expect(cached.size).toBe(0);
  });
});
