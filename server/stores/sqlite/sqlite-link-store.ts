import Database from 'better-sqlite3';
import type { LinkChangeEvent } from '../change-feed.js';
import type { OnMigrated } from '../schema-version.js';
import type { ServerLinkStore } from '../server-link-store.js';
import { createPrivateDatabaseFile } from './private-files.js';
import { createSqliteBulkEdits } from './sqlite-bulk-edits.js';
import { createSqliteChangeFeed } from './sqlite-change-feed.js';
import { createSqliteClaimTokens } from './sqlite-claim-tokens.js';
import { type ClaimOutcome, createSqliteClaims } from './sqlite-claims.js';
import { createSqliteClickReads, sqliteClickBatch } from './sqlite-clicks.js';
import { createSqliteLinkManagement } from './sqlite-link-management.js';
import { createSqliteLinkReads } from './sqlite-link-reads.js';
import { LINK_COLUMNS, type LinkRow, linkFromRow } from './sqlite-link-row.js';
import { migrateSqlite, refuseNewerSqliteSchema } from './sqlite-migrate.js';
import { createSqliteOwnerKeys } from './sqlite-owner-keys.js';
import { createSqliteRecentLinks } from './sqlite-recent-links.js';
import { createSqliteVisitReads } from './sqlite-visits.js';
import { createSqliteWebhooks } from './sqlite-webhooks.js';
import { startSqliteWriter } from './sqlite-writer.js';
import { switchToWal } from './switch-to-wal.js';

/**
 * The server's default store: one SQLite file through better-sqlite3. WAL lets readers run
 * beside the writer, `synchronous=FULL` makes every acknowledged link survive a power cut, and
 * the busy timeout lets several processes share the file. Its folder is created if missing.
 *
 * Reads run on the calling thread (a B-tree lookup, microseconds; see `createSqliteLinkReads`).
 * Creates are group-committed (see `createSqliteClaims`) on a writer thread with a connection of
 * its own (an in-memory database has only the one connection, so it commits in place).
 */
export function createSqliteLinkStore(path: string, options: SqliteOptions = {}): ServerLinkStore {
  const db = openSqliteDatabase(path, options);
  const byCodeKey = db.prepare<[string], LinkRow>(`SELECT ${LINK_COLUMNS} FROM links WHERE code_key = ?`).raw();
  const ping = db.prepare('SELECT 1');
  const reads = createSqliteLinkReads(path, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, db);
  const onThread = path !== ':memory:' && options.writerThread !== false;
  const writer = startSqliteWriter(db, path, onThread ? connectionPragmas(options) : undefined);
  // A link acknowledged from its commit on is seen by the next redirect.
  const claims = createSqliteClaims((batch) => writer.commit(batch) as Promise<ClaimOutcome[]>, reads.end);

  const feed = createSqliteChangeFeed(db, options.changePollMs);
  // Another process's change is told after the redirect reads' snapshot is let go, so a link
  // read again once the cache forgets it is read as changed.
  const changes = {
    ...feed,
    subscribe: (listener: (event: LinkChangeEvent) => void) =>
      feed.subscribe((event) => {
        reads.end();
        listener(event);
      }),
  };
  const management = createSqliteLinkManagement(db);
  const bulk = createSqliteBulkEdits(db);
  const claimTokens = createSqliteClaimTokens(db);
  return {
    ...createSqliteOwnerKeys(db),
    ...management,
    // A change made here is seen by the next redirect read, even in the same turn.
    updateLink: (...args) => management.updateLink(...args).finally(reads.end),
    deleteLink: (...args) => management.deleteLink(...args).finally(reads.end),
    renameTag: (...args) => bulk.renameTag(...args).finally(reads.end),
    deleteTag: (...args) => bulk.deleteTag(...args).finally(reads.end),
    deleteVisits: (...args) => bulk.deleteVisits(...args).finally(reads.end),
    claimStateOf: claimTokens.claimStateOf,
    claimLink: (...args) => claimTokens.claimLink(...args).finally(reads.end),
    clicksOf: createSqliteClickReads(db),
    ...createSqliteVisitReads(db),
    ...createSqliteWebhooks(db, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS),
    async addClicks(batch) {
      await writer.commit([{ clicks: sqliteClickBatch(batch) }]);
    },
    changes,
    create: claims.create,
    async findByCodeKey(codeKey) {
      const row = byCodeKey.get(codeKey);
      return row && linkFromRow(codeKey, row);
    },
    recentActiveLinks: createSqliteRecentLinks(db),
    // The same read without its promise: the cache's misses at a million links are mostly this
    // read, and a promise and a microtask per miss were a tenth of its cost.
    lookup(codeKey) {
      const row = reads.byCodeKey(codeKey);
      return row && linkFromRow(codeKey, row);
    },
    async ping() {
      ping.get();
      await writer.ping(); // a writer thread that cannot run means no create can succeed
    },
    async close() {
      await claims.drain();
      await writer.close();
      feed.close();
      reads.close();
      if (db.open) db.close();
    },
  };
}

export interface SqliteOptions {
  /** How long a write waits for another process's lock before failing (default 5 s). */
  busyTimeoutMs?: number;
  /** Commit on a writer thread (default) or on the calling thread (`false`). */
  writerThread?: boolean;
  /** How often other processes' changes are looked for (default 100 ms). */
  changePollMs?: number;
  /** Told of each migration this open applies (the server logs them). */
  onMigrated?: OnMigrated;
}

/** How long a write waits for another process's lock by default; the fault script holds it longer. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Every connection's settings: the busy timeout, a flush to disk at each commit (WAL is the
 * file's), and the WAL copied back into the database every 10,000 pages (40 MiB) rather than
 * SQLite's 1,000: each generated code dirties a page of its own, and a page changed by many
 * commits between two checkpoints is copied back once (creates: 75 → 71.5 µs of CPU each).
 */
const connectionPragmas = (options: SqliteOptions) => [
  `busy_timeout = ${options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`,
  'synchronous = FULL',
  'wal_autocheckpoint = 10000',
];

/**
 * Opens (creating folder and file if needed, readable by their owner only), configures and
 * migrates a Linklet database. A database a newer Linklet wrote is refused before anything is
 * written to it.
 */
export function openSqliteDatabase(path: string, options: SqliteOptions = {}): Database.Database {
  if (path !== ':memory:') createPrivateDatabaseFile(path);
  const db = new Database(path);
  try {
    // PRAGMA through exec, not `db.pragma`: no statement object is made for settings read once
    // (freeing one aborted Node 24.19+ under better-sqlite3 12, WiseLibs/better-sqlite3#1515).
    for (const pragma of connectionPragmas(options)) db.exec(`PRAGMA ${pragma}`);
    refuseNewerSqliteSchema(db);
    switchToWal(db, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
    migrateSqlite(db, options.onMigrated);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
