import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { Link } from '../core/link-store.js';
import type { HistoryEntry, HistoryStatus } from './history-entry.js';

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
export const DB_VERSION = 1;

/**
 * Opens (and creates or upgrades) the database. Each version's step runs once, in order, so a
 * browser that skipped versions still ends with the same schema.
 */
export function openLinkletDb(name = DB_NAME): Promise<LinkletDatabase> {
  return openDB<LinkletDb>(name, DB_VERSION, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('links', { keyPath: 'codeKey' });
        const history = db.createObjectStore('history', { keyPath: 'id' });
        history.createIndex('by-created', 'createdAt');
        history.createIndex('by-status', 'status');
      }
    },
    blocking(_current, _next, event) {
      // A newer version of the extension wants to upgrade: let it, this page reloads on update.
      (event.target as IDBDatabase).close();
    },
  });
}
