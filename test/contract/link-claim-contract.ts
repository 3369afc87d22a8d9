import { describe, expect, it } from 'vitest';
import type { ManagedLinkStore, OwnerScope } from '../../core/store/link-management-store.js';
import { freshStorePerTest, type StoreFactory } from './fresh-store.js';
import { link, NOW } from './link-store-contract.js';

const ALL: OwnerScope = { all: true };
const HASH = 'a'.repeat(64);
const OTHER_HASH = 'b'.repeat(64);

/**
 * Claim tokens as every store keeps them (schema 14): a create without a key stores its token's
 * hash with the link; no read gives it back but `claimStateOf`; `claimLink` gives an ownerless
 * link to an owner once, on that hash, and spends it. Run over memory, SQLite and PostgreSQL, and
 * behind the wrappers the server puts around them. (The extension's IndexedDB store has no
 * owners, so nothing can claim there: a create on it answers no token; see `createShortenAnswerer`.)
 */
export function describeLinkClaimContract(name: string, factory: StoreFactory<ManagedLinkStore>): void {
  describe(`link claim contract: ${name}`, () => {
    let store: ManagedLinkStore;
    freshStorePerTest(factory, (made) => {
      store = made;
    });

    it('keeps the hash for claimStateOf alone: no create answer, read or listing carries it', async () => {
      const made = await store.create(link('guest', { claimTokenHash: HASH }), NOW);
      expect(made.created && made.link.claimTokenHash).toBeUndefined();
      expect(await store.findByCodeKey('guest')).not.toHaveProperty('claimTokenHash');
      if (store.lookup) expect(await store.lookup('guest')).not.toHaveProperty('claimTokenHash');
      const [listed] = await store.listLinks({ scope: ALL, limit: 10, now: NOW });
      expect(listed).not.toHaveProperty('claimTokenHash');
      expect(await store.claimStateOf('guest')).toEqual({ claimTokenHash: HASH });
      expect(await store.claimStateOf('nobody')).toBeUndefined();
    });

    it('gives the link to the owner on its hash, once: the hash is spent, the change listed for sync', async () => {
      await store.create(link('guest', { claimTokenHash: HASH }), NOW);
      await store.addClicks({ day: Math.floor(NOW / 86_400_000), codeKeys: ['guest'], counts: [3] });
      const claimed = await store.claimLink('guest', HASH, 7, NOW + 10);
      expect(claimed).toMatchObject({ code: 'guest', ownerId: 7, clicks: 3, updatedAt: NOW + 10 });
      expect(claimed).not.toHaveProperty('claimTokenHash');
      expect(await store.claimStateOf('guest')).toEqual({ ownerId: 7 });
      expect((await store.listLinks({ scope: { ownerId: 7 }, limit: 10, now: NOW })).map((l) => l.code)).toEqual([
        'guest',
      ]);
      const changes = await store.listChanges({ scope: { ownerId: 7 }, limit: 10, since: NOW });
      expect(changes.map((change) => change.kind === 'link' && change.link.code)).toEqual(['guest']);
      // The same hash again, by anyone: the link is someone's now.
      expect(await store.claimLink('guest', HASH, 8, NOW + 20)).toBeUndefined();
      expect(await store.claimLink('guest', HASH, 7, NOW + 20)).toBeUndefined();
      expect((await store.findByCodeKey('guest'))?.ownerId).toBe(7);
    });

    it('refuses another hash, a link with no hash, and a link that has an owner, changing none of them', async () => {
      await store.create(link('guest', { claimTokenHash: HASH }), NOW);
      await store.create(link('admins'), NOW);
      await store.create(link('owned', { ownerId: 3 }), NOW);
      expect(await store.claimLink('guest', OTHER_HASH, 7, NOW + 1)).toBeUndefined();
      expect(await store.claimLink('admins', HASH, 7, NOW + 1)).toBeUndefined();
      expect(await store.claimLink('owned', HASH, 7, NOW + 1)).toBeUndefined();
      expect(await store.claimLink('missing', HASH, 7, NOW + 1)).toBeUndefined();
      expect(await store.claimStateOf('guest')).toEqual({ claimTokenHash: HASH });
      expect(await store.claimStateOf('admins')).toEqual({});
      expect(await store.claimStateOf('owned')).toEqual({ ownerId: 3 });
      expect((await store.findByCodeKey('guest'))?.updatedAt).toBeUndefined();
    });

    it("forgets the hash with its link: a retaken code carries the new link's, a deleted one none", async () => {
      await store.create(link('short', { expiresAt: NOW + 1000, claimTokenHash: HASH }), NOW);
      await store.create(link('short', { createdAt: NOW + 2000, expiresAt: NOW + 86_400_000 }), NOW + 2000);
      expect(await store.claimStateOf('short')).toEqual({});
      expect(await store.claimLink('short', HASH, 7, NOW + 3000)).toBeUndefined();
      await store.create(link('gone', { claimTokenHash: OTHER_HASH }), NOW);
      expect(await store.deleteLink('gone', ALL, NOW + 1)).toBe(true);
      await store.create(link('gone', { createdAt: NOW + 5 }), NOW + 5);
      expect(await store.claimStateOf('gone')).toEqual({});
    });

    it('lets one of two claims at once win', async () => {
      await store.create(link('raced', { claimTokenHash: HASH }), NOW);
      const results = await Promise.all([
        store.claimLink('raced', HASH, 7, NOW + 1),
        store.claimLink('raced', HASH, 8, NOW + 1),
      ]);
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
      const winner = results.find((result) => result !== undefined)?.ownerId;
      expect((await store.findByCodeKey('raced'))?.ownerId).toBe(winner);
    });
  });
}
