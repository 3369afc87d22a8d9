import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { Link } from '../../core/store/link-store.js';
import type { HistoryEntry, HistoryStatus } from '../history/history-entry.js';
import { MIGRATIONS } from './link-db-migrations.js';

/** The extension's one IndexedDB database: the bundled backend's links and the user's history. */
export interface LinkletDb extends DBSchema {
  /** The bundled backend's `LinkStore`: one row per code key. */
  links: { key: string; value: Link };
  /** Every link the user made here, local or on a server, newest first by `createdAt`. */
  history: {
    key: string;
    value: HistoryEntry;
    indexes: { 'by-created': number; 'by-status': HistoryStatus };
  };
}

export type LinkletDatabase = IDBPDatabase<LinkletDb>;

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
