import type { IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { LinkletDb } from './link-db-schema.js';

/** One step of the database's schema, run inside IndexedDB's versionchange transaction. */
export type Migration = (
  db: IDBPDatabase<LinkletDb>,
  tx: IDBPTransaction<LinkletDb, StoreNames<LinkletDb>[], 'versionchange'>,
) => void;

/**
 * Every schema the extension's database has had, in order: step `i` takes a database at
 * IndexedDB version `i` to `i + 1`, so the database's own version is the number of steps it has
 * run, and a browser that skipped releases runs the ones it missed, in order. Steps are only
 * ever appended; a shipped one never changes, since some browser already ran it. Records are
 * not rewritten here: an older record's shape is read as it is (see `readHistoryRecord`).
 */
export const MIGRATIONS: readonly Migration[] = [
  // 0 → 1 (every release so far): the bundled backend's links by code key; the history by id,
  // listed newest first and searched for links waiting for the server.
  (db) => {
    db.createObjectStore('links', { keyPath: 'codeKey' });
    const history = db.createObjectStore('history', { keyPath: 'id' });
    history.createIndex('by-created', 'createdAt');
    history.createIndex('by-status', 'status');
  },
];
