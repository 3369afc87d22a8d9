import type { LinkletDatabase } from '../backend/link-db.js';
import { orStorageFull } from '../backend/storage-full.js';
import type { HistoryEntry } from './history-entry.js';
import { newestFirst, oldestFirst, readHistoryRecords } from './history-record.js';

/** The user's links, newest first. Popup, options and background each open their own. */
export interface History {
  put(entry: HistoryEntry): Promise<void>;
  get(id: string): Promise<HistoryEntry | undefined>;
  remove(id: string): Promise<void>;
  /**
   * Newest first; `query` matches the short URL, code, original URL, title or a tag, ignoring
   * case; `tag` keeps only the links that carry that tag.
   */
  list(options?: HistoryQuery): Promise<HistoryEntry[]>;
  /** Every tag the listed links carry, once each, so the popup offers them to filter by. */
  tags(): Promise<string[]>;
  /** Entries still waiting for the server, oldest first. */
  pending(): Promise<HistoryEntry[]>;
}

/** What the history list is narrowed to. */
export interface HistoryQuery {
  query?: string;
  /** A tag the links must carry (tags are kept in lower case, so any case finds it). */
  tag?: string;
  limit?: number;
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
    async list({ query = '', tag = '', limit = Number.POSITIVE_INFINITY } = {}) {
      const needle = query.trim().toLowerCase();
      const wanted = tag.trim().toLowerCase();
      // The whole store, not the by-created index: the index leaves out a record whose createdAt
      // is missing or damaged without a word, and the history must say which one it skips.
      const entries = readHistoryRecords(await (await database()).getAll('history'));
      entries.sort(newestFirst);
      return entries.filter((entry) => hasTag(entry, wanted) && matches(entry, needle)).slice(0, limit);
    },
    async tags() {
      const entries = readHistoryRecords(await (await database()).getAll('history'));
      const tags = new Set(entries.flatMap((entry) => (Array.isArray(entry.tags) ? entry.tags : [])));
      return [...tags].filter((tag) => typeof tag === 'string').sort();
    },
    async pending() {
      const entries = readHistoryRecords(await (await database()).getAllFromIndex('history', 'by-status', 'pending'));
      return entries.sort(oldestFirst);
    },
  };
}

function matches(entry: HistoryEntry, needle: string): boolean {
  if (needle === '') return true;
  // Title and tags are the server's (a synced link); an older record may lack them.
  const labels = [entry.title, ...(Array.isArray(entry.tags) ? entry.tags : [])];
  return [entry.shortUrl, entry.code, entry.originalUrl, ...labels].some(
    (field) => typeof field === 'string' && field.toLowerCase().includes(needle),
  );
}

function hasTag(entry: HistoryEntry, wanted: string): boolean {
  if (wanted === '') return true;
  return Array.isArray(entry.tags) && entry.tags.some((tag) => tag.toLowerCase() === wanted);
}
