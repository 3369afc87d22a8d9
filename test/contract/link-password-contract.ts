import { describe, expect, it } from 'vitest';
import type { ManagedLinkStore, OwnerScope } from '../../core/store/link-management-store.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { freshStorePerTest, type StoreFactory } from './fresh-store.js';
import { link, NOW } from './link-store-contract.js';

const ALL: OwnerScope = { all: true };
// Any text in the hasher's form: stores keep it as it is and never look inside.
const HASH = 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';
const OTHER_HASH = 'pbkdf2-sha256$600000$c2FsdA$aGFzaA';

/** A fresh store per test, as every contract suite sets up (see `freshStorePerTest`). */
function freshStores<S extends LinkStore>(factory: StoreFactory<S>) {
  const state = { store: undefined as unknown as S };
  freshStorePerTest(factory, (made) => {
    state.store = made;
  });
  return state;
}

/**
 * What every store promises of a link's password hash: kept as given by a create, read back by
 * `findByCodeKey` (the whole record), absent on a link without one, and gone with a retake of an
 * expired code. Run over memory, SQLite, PostgreSQL and IndexedDB.
 */
export function describeLinkPasswordContract(name: string, factory: StoreFactory<LinkStore>): void {
  describe(`link passwords: ${name}`, () => {
    const state = freshStores(factory);

    it('keeps the hash of a create and reads it back; a link without one has no such field', async () => {
      const made = await state.store.create(link('Locked', { passwordHash: HASH }), NOW);
      expect(made.created).toBe(true);
      await state.store.create(link('open'), NOW);
      expect((await state.store.findByCodeKey('locked'))?.passwordHash).toBe(HASH);
      const open = await state.store.findByCodeKey('open');
      expect(open).toBeDefined();
      expect(open && 'passwordHash' in open).toBe(false);
    });

    it('a retake of an expired code drops the old holder’s password', async () => {
      await state.store.create(link('gone', { passwordHash: HASH, expiresAt: NOW + 1000 }), NOW);
      const later = NOW + 2000;
      const retaken = await state.store.create(
        link('gone', { createdAt: later, expiresAt: later + 86_400_000 }),
        later,
      );
      expect(retaken.created).toBe(true);
      const found = await state.store.findByCodeKey('gone');
      expect(found?.createdAt).toBe(later);
      expect(found?.passwordHash).toBeUndefined();
    });
  });
}

/** `updateLink` sets, replaces and removes a password, and the listings carry the hash for views. */
export function describeManagedLinkPasswordContract(name: string, factory: StoreFactory<ManagedLinkStore>): void {
  describe(`link passwords, managed: ${name}`, () => {
    const state = freshStores(factory);

    it('PATCH sets, replaces and removes the hash, leaving the other fields alone', async () => {
      await state.store.create(link('p', { originalUrl: 'https://example.com/p' }), NOW);
      const set = await state.store.updateLink('p', ALL, { passwordHash: HASH }, NOW + 1);
      expect(set.updated && set.link.passwordHash).toBe(HASH);
      expect(set.updated && set.link.originalUrl).toBe('https://example.com/p');
      expect((await state.store.findByCodeKey('p'))?.passwordHash).toBe(HASH);
      const listed = await state.store.listLinks({ scope: ALL, limit: 10, now: NOW + 2 });
      expect(listed.map((found) => found.passwordHash)).toEqual([HASH]);

      const disabled = await state.store.updateLink('p', ALL, { disabled: true }, NOW + 3);
      expect(disabled.updated && disabled.link.passwordHash).toBe(HASH); // untouched when not in the patch
      const replaced = await state.store.updateLink('p', ALL, { passwordHash: OTHER_HASH }, NOW + 4);
      expect(replaced.updated && replaced.link.passwordHash).toBe(OTHER_HASH);
      const removed = await state.store.updateLink('p', ALL, { passwordHash: null }, NOW + 5);
      expect(removed.updated && removed.link.passwordHash).toBeUndefined();
      expect((await state.store.findByCodeKey('p'))?.passwordHash).toBeUndefined();
    });
  });
}
