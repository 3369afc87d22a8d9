import { describe, expect, it } from 'vitest';
import type { ManagedLinkStore, OwnerScope } from '../../core/store/link-management-store.js';
import type { Link, RecentLinksCursor } from '../../core/store/link-store.js';
import { freshStorePerTest, type StoreFactory } from './fresh-store.js';
import { link, NOW } from './link-store-contract.js';

const ALL: OwnerScope = { all: true };
const HASH = 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';

/** Every page of `recentActiveLinks` from the newest on, `limit` at a time, read at `now`. */
async function walk(store: ManagedLinkStore, limit: number, now: number): Promise<Link[][]> {
  const read = store.recentActiveLinks?.bind(store);
  if (!read) throw new Error('this store has no recentActiveLinks');
  const pages: Link[][] = [];
  let before: RecentLinksCursor | undefined;
  for (;;) {
    const page = await read(limit, now, before);
    pages.push(page);
    const last = page.at(-1);
    if (last === undefined || page.length < limit) return pages;
    before = { createdAt: last.createdAt, codeKey: last.codeKey };
    if (pages.length > 1000) throw new Error('recentActiveLinks never ran out of pages');
  }
}

/**
 * What a store with `recentActiveLinks` (the cache's warming read) promises: the links a redirect
 * would follow, newest first, whole records (a password's hash included, so the redirect still
 * asks for it), a page at a time from a cursor that passes each link exactly once, even links
 * made in one millisecond. A store without the op passes with nothing checked unless `required` (SQLite and
 * PostgreSQL have it: a build losing it fails here rather than starting cold unnoticed).
 */
export function describeRecentLinksContract(
  name: string,
  factory: StoreFactory<ManagedLinkStore>,
  { required = true }: { required?: boolean } = {},
): void {
  describe(`recentActiveLinks: ${name}`, () => {
    const state = { store: undefined as unknown as ManagedLinkStore };
    freshStorePerTest(factory, (made) => {
      state.store = made;
    });
    /**
     * The store, or undefined when it has no such op and need not: the case then has nothing to
     * check and passes (a skipped test fails the whole run, see test/summary-reporter.ts).
     */
    const withOp = () => {
      if (!state.store.recentActiveLinks && !required) return undefined;
      expect(state.store.recentActiveLinks, `${name} must offer recentActiveLinks`).toBeTypeOf('function');
      return state.store;
    };

    it('gives [] for an empty store, first page or after a cursor', async () => {
      const store = withOp();
      if (!store) return;
      expect(await store.recentActiveLinks?.(10, NOW)).toEqual([]);
      expect(await store.recentActiveLinks?.(10, NOW, { createdAt: NOW, codeKey: 'zzz' })).toEqual([]);
    });

    it('answers newest first, whole records, no more than the limit', async () => {
      const store = withOp();
      if (!store) return;
      const made = [1, 2, 3, 4, 5].map((n) => link(`n${n}`, { createdAt: NOW - 10_000 + n * 1000 }));
      for (const one of [made[2], made[0], made[4], made[1], made[3]] as Link[]) await store.create(one, NOW);
      expect(await store.recentActiveLinks?.(3, NOW)).toEqual([made[4], made[3], made[2]]);
      expect(await store.recentActiveLinks?.(1, NOW)).toEqual([made[4]]);
      expect(await store.recentActiveLinks?.(50, NOW)).toEqual([...made].reverse());
    });

    it('walks every active link exactly once in keyset pages, links sharing a createdAt included', async () => {
      const store = withOp();
      if (!store) return;
      // 4 links to a millisecond, so pages of 3 end in the middle of one millisecond's links.
      const made = Array.from({ length: 26 }, (_, i) =>
        link(`k${String(i).padStart(2, '0')}`, {
          createdAt: NOW - 60_000 + Math.floor(i / 4) * 1000,
        }),
      );
      for (const one of made) await store.create(one, NOW);
      for (const limit of [1, 3, 4, 7, 26, 100]) {
        const pages = await walk(store, limit, NOW);
        for (const page of pages) expect(page.length).toBeLessThanOrEqual(limit);
        const seen = pages.flat();
        expect(seen.map((one) => one.codeKey).sort(), `pages of ${limit}`).toEqual(made.map((one) => one.codeKey));
        const times = seen.map((one) => one.createdAt);
        expect(times, `newest first in pages of ${limit}`).toEqual([...times].sort((a, b) => b - a));
      }
    });

    it('leaves out expired and disabled links, and keeps the password-protected with their hash', async () => {
      const store = withOp();
      if (!store) return;
      const open = link('open', { createdAt: NOW - 4000 });
      const locked = link('locked', { createdAt: NOW - 3000, passwordHash: HASH });
      const brief = link('brief', { createdAt: NOW - 2000, expiresAt: NOW + 1000 });
      const off = link('off', { createdAt: NOW - 1000 });
      for (const one of [open, locked, brief, off]) await store.create(one, NOW);
      expect((await store.updateLink('off', ALL, { disabled: true }, NOW + 1)).updated).toBe(true);

      expect(await store.recentActiveLinks?.(10, NOW + 999)).toEqual([brief, locked, open]);
      // At its expiry a link is expired (expiresAt <= now), as everywhere else.
      const later = await store.recentActiveLinks?.(10, NOW + 1000);
      expect(later).toEqual([locked, open]);
      expect(later?.[0]?.passwordHash).toBe(HASH);
      // Left-out links do not stop a walk either: pages of one still reach the oldest.
      expect((await walk(store, 1, NOW + 1000)).flat()).toEqual([locked, open]);
    });
  });
}
