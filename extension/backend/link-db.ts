import { openDB } from 'idb';
import { MIGRATIONS } from './link-db-migrations.js';
import type { LinkletDatabase, LinkletDb } from './link-db-schema.js';

export type { LinkletDatabase, LinkletDb } from './link-db-schema.js';

export const DB_NAME = 'linklet';
/** The version IndexedDB records once every migration has run: one per step. */
export const DB_VERSION = MIGRATIONS.length;

/**
 * Opens (and creates or upgrades) the database. The steps it has not run yet run once, in order,
 * in one versionchange transaction: a step that throws aborts them all and leaves the database at
 * the version it had, so a failed update loses nothing and is tried again on the next open.
 */
export function openLinkletDb(name = DB_NAME, migrations = MIGRATIONS): Promise<LinkletDatabase> {
  return openDB<LinkletDb>(name, migrations.length, {
    upgrade(db, oldVersion, _newVersion, tx) {
      // A failed step rejects the open, which the caller sees; the aborted transaction says the same.
      tx.done.catch(() => undefined);
      for (const migrate of migrations.slice(oldVersion)) migrate(db, tx);
    },
    blocking(_current, _next, event) {
      // A newer version of the extension wants to upgrade: let it, this page reloads on update.
      (event.target as IDBDatabase).close();
    },
  });
}
