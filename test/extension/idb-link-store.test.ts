import { deleteDB, openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../extension/backend/create-local-backend.js';
import { createIdbLinkStore } from '../../extension/backend/idb-link-store.js';
import { DB_VERSION, openLinkletDb } from '../../extension/backend/link-db.js';
import { describeLinkPasswordContract } from '../contract/link-password-contract.js';
import { describeLinkStoreContract, link, NOW } from '../contract/link-store-contract.js';
import { entry, freshDbName } from './helpers.js';

describeLinkStoreContract('IndexedDB (fake-indexeddb)', async () => {
  const name = freshDbName();
  return { store: createIdbLinkStore(() => openLinkletDb(name)), dispose: () => deleteDB(name) };
});

describeLinkPasswordContract('IndexedDB (fake-indexeddb)', async () => {
  const name = freshDbName();
  return { store: createIdbLinkStore(() => openLinkletDb(name)), dispose: () => deleteDB(name) };
});

describe('the extension database', () => {
  // The claim-token contract (test/contract/link-claim-contract.ts) does not apply here: this
  // store keeps one browser's links and no owners, so nothing could ever claim a link. The
  // bundled backend answers no token (it would promise what it cannot do) and keeps no hash.
  it('is handed no claim token: a create on the bundled backend answers none and keeps none', async () => {
    const name = freshDbName();
    const store = createIdbLinkStore(() => openLinkletDb(name));
    const backend = createLocalBackend(store);
    const made = await backend(
      new Request('http://linklet.local/api/v1/shorten', {
        method: 'POST',
        body: JSON.stringify({ original_url: 'https://example.com/', custom_code: 'local' }),
      }),
    );
    expect(made.status).toBe(201);
    expect((await made.json()).data).not.toHaveProperty('claim_token');
    expect(await store.findByCodeKey('local')).not.toHaveProperty('claimTokenHash');
    await store.close();
    await deleteDB(name);
  });

  it('creates both stores, their key paths and the history indexes on first open', async () => {
    const name = freshDbName();
    const db = await openLinkletDb(name);
    try {
      expect(db.version).toBe(DB_VERSION);
      expect([...db.objectStoreNames].sort()).toEqual(['history', 'links']);
      const tx = db.transaction(['links', 'history']);
      expect(tx.objectStore('links').keyPath).toBe('codeKey');
      const history = tx.objectStore('history');
      expect(history.keyPath).toBe('id');
      expect([...history.indexNames].sort()).toEqual(['by-created', 'by-status']);
      expect(history.index('by-created').keyPath).toBe('createdAt');
      expect(history.index('by-status').keyPath).toBe('status');
      await tx.done;
    } finally {
      db.close();
      await deleteDB(name);
    }
  });

  it('keeps links and history across closing and reopening', async () => {
    const name = freshDbName();
    const first = createIdbLinkStore(() => openLinkletDb(name));
    const made = link('Keep');
    await first.create(made, NOW);
    const db = await openLinkletDb(name);
    await db.put('history', entry({ id: 'kept' }));
    db.close();
    await first.close();

    const reopened = createIdbLinkStore(() => openLinkletDb(name));
    expect(await reopened.findByCodeKey('keep')).toEqual(made);
    const again = await openLinkletDb(name);
    expect(await again.get('history', 'kept')).toEqual(entry({ id: 'kept' }));
    again.close();
    await reopened.close();
    await deleteDB(name);
  });

  it('counts clicks on the link holding a code, concurrent ones included; a retaken code starts from 0', async () => {
    const name = freshDbName();
    const store = createIdbLinkStore(() => openLinkletDb(name));
    await store.create(link('hot', { expiresAt: NOW + 1000 }), NOW);
    await Promise.all([store.addClick('hot'), store.addClick('hot'), store.addClick('hot'), store.addClick('none')]);
    expect((await store.findByCodeKey('hot'))?.clicks).toBe(3);
    expect(await store.findByCodeKey('none')).toBeUndefined();
    await store.create(link('hot', { createdAt: NOW + 2000 }), NOW + 2000);
    expect((await store.findByCodeKey('hot'))?.clicks).toBeUndefined();
    await store.close();
    await deleteDB(name);
  });

  it('deletes a link by its code key and leaves the others', async () => {
    const name = freshDbName();
    const store = createIdbLinkStore(() => openLinkletDb(name));
    await store.create(link('gone'), NOW);
    await store.create(link('stays'), NOW);
    await store.deleteByCodeKey('gone');
    expect(await store.findByCodeKey('gone')).toBeUndefined();
    expect(await store.findByCodeKey('stays')).toEqual(link('stays'));
    // The code is free again for a new link.
    expect((await store.create(link('gone', { originalUrl: 'https://new.example' }), NOW)).created).toBe(true);
    await store.deleteByCodeKey('never-there');
    await store.close();
    await deleteDB(name);
  });

  it('closes its connection when a newer version wants to upgrade, so the upgrade is not blocked', async () => {
    const name = freshDbName();
    const db = await openLinkletDb(name);
    let blocked = false;
    const newer = await openDB(name, DB_VERSION + 1, {
      blocked() {
        blocked = true;
      },
    });
    expect(newer.version).toBe(DB_VERSION + 1);
    expect(blocked).toBe(false);
    newer.close();
    db.close();
    await deleteDB(name);
  });
});
