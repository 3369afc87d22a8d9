import type { HistoryEntry } from './history-entry.js';
import type { LinkletDatabase } from './link-db.js';
import { orStorageFull } from './storage-full.js';

/** The user's links, newest first. Popup, options and background each open their own. */
export interface History {
  put(entry: HistoryEntry): Promise<void>;
  get(id: string): Promise<HistoryEntry | undefined>;
  remove(id: string): Promise<void>;
  /** Newest first; `query` matches the short URL, code or original URL, ignoring case. */
  list(options?: { query?: string; limit?: number }): Promise<HistoryEntry[]>;
  /** Entries still waiting for the server, oldest first. */
  pending(): Promise<HistoryEntry[]>;
}

export function createHistory(open: () => Promise<LinkletDatabase>): History {
  let db: Promise<LinkletDatabase> | undefined;
  const database = () => {
    db ??= open();
    return db;
  };
  return {
    async put(entry) {
      const db = await database();
      await orStorageFull(() => db.put('history', entry));
    },
    async get(id) {
      return (await database()).get('history', id);
    },
    async remove(id) {
      await (await database()).delete('history', id);
    },
    async list({ query = '', limit = Number.POSITIVE_INFINITY } = {}) {
      const needle = query.trim().toLowerCase();
      const found: HistoryEntry[] = [];
      let cursor = await (await database()).transaction('history').store.index('by-created').openCursor(null, 'prev');
      while (cursor && found.length < limit) {
        if (matches(cursor.value, needle)) found.push(cursor.value);
        cursor = await cursor.continue();
      }
      return found;
    },
    async pending() {
      const entries = await (await database()).getAllFromIndex('history', 'by-status', 'pending');
      return entries.sort((a, b) => a.createdAt - b.createdAt);
    },
  };
}

function matches(entry: HistoryEntry, needle: string): boolean {
  if (needle === '') return true;
  return [entry.shortUrl, entry.code, entry.originalUrl].some((field) => field.toLowerCase().includes(needle));
}
