import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Link, LinkStore } from '../../core/store/link-store.js';
import { withLookupChecked } from './lookup-checked.js';

/** The moment the contract's links are made at. */
export const NOW = Date.UTC(2026, 0, 31, 12, 0, 0);

/** A link made at `NOW` that lives a day, for store tests. */
export const link = (code: string, overrides: Partial<Link> = {}): Link => ({
  code,
  codeKey: code.toLowerCase(),
  originalUrl: `https://example.com/${encodeURIComponent(code)}`,
  createdAt: NOW,
  expiresAt: NOW + 86_400_000,
  ...overrides,
});

/**
 * The behaviour every `LinkStore` promises. Each store's test file calls this with a factory that
 * gives a fresh, empty store (and a way to release it), so all stores are held to one standard,
 * and so are the wrappers production puts around them (the cache, faults as 503), as unstorage
 * runs one driver suite over its overlay drivers too. Stores are told the time of each create;
 * a wrapper with a clock of its own (the cache's) gets `clock`, the moment the contract is at.
 */
export function describeLinkStoreContract(
  name: string,
  factory: (clock: () => number) => Promise<{ store: LinkStore; dispose?: () => Promise<void> }>,
): void {
  describe(`LinkStore contract: ${name}`, () => {
    let store: LinkStore;
    let time = NOW;
    const disposers: Array<() => Promise<void>> = [];

    beforeEach(async () => {
      time = NOW;
      const made = await factory(() => time);
      store = withLookupChecked(made.store);
      disposers.push(async () => {
        await made.store.close().catch(() => {});
        await made.dispose?.();
      });
    });
    afterAll(async () => {
      for (const dispose of disposers) await dispose();
    });

    it('creates a link and finds it by its code key, with every field intact', async () => {
      const made = link('Promo', { originalUrl: 'https://example.com/ä?q=1#frag' });
      expect(await store.create(made, NOW)).toEqual({ created: true, link: made });
      expect(await store.findByCodeKey('promo')).toEqual(made);
    });

    it('finds nothing for an unknown code key', async () => {
      expect(await store.findByCodeKey('missing')).toBeUndefined();
    });

    it('keeps Hangul codes and millisecond times exactly', async () => {
      const made = link('한글코드', { createdAt: NOW + 7, expiresAt: NOW + 2_678_400_123 });
      await store.create(made, NOW);
      expect(await store.findByCodeKey('한글코드')).toEqual(made);
    });

    it('refuses a code key held by an active link and reports the holder expiration', async () => {
      const holder = link('Promo');
      await store.create(holder, NOW);
      const result = await store.create(link('PROMO', { originalUrl: 'https://other.example' }), NOW + 1000);
      expect(result).toEqual({ created: false, holderExpiresAt: holder.expiresAt });
      expect(await store.findByCodeKey('promo')).toEqual(holder);
    });

    it('treats the holder as active until the very millisecond it expires', async () => {
      const holder = link('edge');
      await store.create(holder, NOW);
      const justBefore = await store.create(link('edge'), holder.expiresAt - 1);
      expect(justBefore.created).toBe(false);
      const replacement = link('EDGE', { originalUrl: 'https://new.example', createdAt: holder.expiresAt });
      expect(await store.create(replacement, holder.expiresAt)).toEqual({ created: true, link: replacement });
      expect(await store.findByCodeKey('edge')).toEqual(replacement);
    });

    it('replaces an expired holder and keeps the newcomer spelling', async () => {
      await store.create(link('old', { expiresAt: NOW - 1 }), NOW - 10_000);
      const newcomer = link('OLD', { originalUrl: 'https://fresh.example' });
      expect(await store.create(newcomer, NOW)).toEqual({ created: true, link: newcomer });
      expect((await store.findByCodeKey('old'))?.code).toBe('OLD');
    });

    it('still finds an expired link until it is replaced (so resolution can answer 410)', async () => {
      const expired = link('gone', { expiresAt: NOW - 1 });
      await store.create(expired, NOW - 10_000);
      expect(await store.findByCodeKey('gone')).toEqual(expired);
    });

    it('lets exactly one of many simultaneous creates of one code win', async () => {
      const attempts = Array.from({ length: 50 }, (_, i) =>
        store.create(link('race', { originalUrl: `https://example.com/${i}` }), NOW),
      );
      const results = await Promise.all(attempts);
      const winners = results.filter((result) => result.created);
      expect(winners).toHaveLength(1);
      const stored = await store.findByCodeKey('race');
      expect(stored).toEqual(winners[0]?.created ? winners[0].link : undefined);
      for (const result of results) {
        if (!result.created) expect(result.holderExpiresAt).toBe(NOW + 86_400_000);
      }
    });

    it('lets exactly one of many simultaneous replacements of an expired code win', async () => {
      await store.create(link('stale', { expiresAt: NOW - 1 }), NOW - 10_000);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.create(link('stale', { originalUrl: `https://example.com/${i}` }), NOW),
        ),
      );
      expect(results.filter((result) => result.created)).toHaveLength(1);
    });

    it('keeps distinct codes apart', async () => {
      const codes = ['a', 'b', '가', '각', 'a-b', 'a_b'];
      for (const code of codes) expect((await store.create(link(code), NOW)).created).toBe(true);
      for (const code of codes) expect((await store.findByCodeKey(code.toLowerCase()))?.code).toBe(code);
    });

    // A store read through a cache must still answer what the store holds now: these look a code
    // up before its state changes, which is when a cache could hold on to a stale answer.

    it('finds a link made after a lookup of its code found nothing', async () => {
      expect(await store.findByCodeKey('later')).toBeUndefined();
      const made = link('later');
      await store.create(made, NOW);
      expect(await store.findByCodeKey('later')).toEqual(made);
    });

    it('finds the newcomer once an expired holder that was looked up is replaced', async () => {
      const expired = link('faded', { expiresAt: NOW - 1 });
      await store.create(expired, NOW - 10_000);
      expect(await store.findByCodeKey('faded')).toEqual(expired);
      const newcomer = link('faded', { originalUrl: 'https://fresh.example' });
      expect(await store.create(newcomer, NOW)).toEqual({ created: true, link: newcomer });
      expect(await store.findByCodeKey('faded')).toEqual(newcomer);
    });

    it('finds the newcomer once a holder that was looked up while active expires and is replaced', async () => {
      const holder = link('brief', { expiresAt: NOW + 1000 });
      await store.create(holder, NOW);
      expect(await store.findByCodeKey('brief')).toEqual(holder);
      expect(await store.findByCodeKey('brief')).toEqual(holder);
      time = holder.expiresAt;
      const newcomer = link('brief', { originalUrl: 'https://next.example', createdAt: time });
      expect(await store.create(newcomer, time)).toEqual({ created: true, link: newcomer });
      expect(await store.findByCodeKey('brief')).toEqual(newcomer);
    });

    it('answers ping while open', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
