import type { LinkletDatabase } from '../backend/link-db.js';
import { orStorageFull } from '../backend/storage-full.js';
import type { HistoryEntry } from './history-entry.js';
import { newestFirst, oldestFirst, readHistoryRecords } from './history-record.js';

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

/**
 * The history on the extension's database. Every read goes through `readHistoryRecord`, so
 * records an earlier release wrote are listed, and one that cannot be read is skipped with its
 * reason logged instead of failing the whole list.
 */
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
      const [entry] = readHistoryRecords([await (await database()).get('history', id)].filter(Boolean));
      return entry;
    },
    async remove(id) {
      await (await database()).delete('history', id);
    },
    async list({ query = '', limit = Number.POSITIVE_INFINITY } = {}) {
      const needle = query.trim().toLowerCase();
      // The whole store, not the by-created index: the index leaves out a record whose createdAt
      // is missing or damaged without a word, and the history must say which one it skips.
      const entries = readHistoryRecords(await (await database()).getAll('history'));
      entries.sort(newestFirst);
      return entries.filter((entry) => matches(entry, needle)).slice(0, limit);
    },
    async pending() {
      const entries = readHistoryRecords(await (await database()).getAllFromIndex('history', 'by-status', 'pending'));
      return entries.sort(oldestFirst);
    },
  };
}

function matches(entry: HistoryEntry, needle: string): boolean {
  if (needle === '') return true;
  return [entry.shortUrl, entry.code, entry.originalUrl].some((field) => field.toLowerCase().includes(needle));
}
