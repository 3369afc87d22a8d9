import type { CreateLinkResult, Link, LinkStore } from '../core/link-store.js';
import type { LinkletDatabase } from './link-db.js';
import { orStorageFull } from './storage-full.js';

/** The bundled backend's store, plus the delete the history needs for local links. */
export interface IdbLinkStore extends LinkStore {
  deleteByCodeKey(codeKey: string): Promise<void>;
}

/**
 * `LinkStore` on IndexedDB. `create` reads and writes in one readwrite transaction, and
 * IndexedDB runs readwrite transactions on one store one after another, so two creates of one
 * code cannot both see it free. Nothing else is awaited inside the transaction: an unrelated
 * await would let it auto-commit halfway.
 */
export function createIdbLinkStore(open: () => Promise<LinkletDatabase>): IdbLinkStore {
  let db: Promise<LinkletDatabase> | undefined;
  const database = () => {
    db ??= open();
    return db;
  };
  return {
    async create(link: Link, now: number): Promise<CreateLinkResult> {
      const db = await database();
      return orStorageFull(async () => {
        const tx = db.transaction('links', 'readwrite', { durability: 'strict' });
        const holder = await tx.store.get(link.codeKey);
        if (holder && now < holder.expiresAt) {
          await tx.done;
          return { created: false, holderExpiresAt: holder.expiresAt };
        }
        await Promise.all([tx.store.put({ ...link }), tx.done]);
        return { created: true, link: { ...link } };
      });
    },
    async findByCodeKey(codeKey: string) {
      return (await database()).get('links', codeKey);
    },
    async deleteByCodeKey(codeKey: string) {
      await (await database()).delete('links', codeKey);
    },
    async ping() {
      await database();
    },
    async close() {
      (await database()).close();
    },
  };
}
