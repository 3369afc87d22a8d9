import type { CreateLinkResult, Link, LinkStore } from '../../core/store/link-store.js';
import type { LinkletDatabase } from './link-db.js';
import { orStorageFull } from './storage-full.js';

/** The bundled backend's store, plus the delete the history needs for local links and the click count of the open page. */
export interface IdbLinkStore extends LinkStore {
  deleteByCodeKey(codeKey: string): Promise<void>;
  /** Counts one click on the link holding this code key (none: nothing), kept as the link's `clicks`. */
  addClick(codeKey: string): Promise<void>;
  /** Disables or enables the link holding this code key (an imported link disabled where it came from). */
  setDisabled(codeKey: string, disabled: boolean): Promise<void>;
  /** Renew: the link holding this code key (expired or not) expires at `expiresAt`; disabled stays so. */
  renew(codeKey: string, expiresAt: number): Promise<void>;
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
    async addClick(codeKey: string) {
      const db = await database();
      // Read and write in one transaction, so two tabs opening the link at once both count.
      const tx = db.transaction('links', 'readwrite');
      const held = await tx.store.get(codeKey);
      if (held) await tx.store.put({ ...held, clicks: (held.clicks ?? 0) + 1 });
      await tx.done;
    },
    async setDisabled(codeKey: string, disabled: boolean) {
      const db = await database();
      const tx = db.transaction('links', 'readwrite');
      const held = await tx.store.get(codeKey);
      if (held) await tx.store.put({ ...held, disabled });
      await tx.done;
    },
    async renew(codeKey: string, expiresAt: number) {
      const db = await database();
      const tx = db.transaction('links', 'readwrite', { durability: 'strict' });
      const held = await tx.store.get(codeKey);
      if (held) await tx.store.put({ ...held, expiresAt, updatedAt: Date.now() });
      await tx.done;
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
