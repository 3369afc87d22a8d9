import type { DBSchema, IDBPDatabase } from 'idb';
import type { Link } from '../../core/store/link-store.js';
import type { HistoryEntry, HistoryStatus } from '../history/history-entry.js';

/**
 * The extension's one IndexedDB database: the bundled backend's links and the user's history.
 * Its own module, below both the opener (`link-db.ts`) and the steps that build it
 * (`link-db-migrations.ts`), so neither imports the other for it.
 */
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
