import Database from 'better-sqlite3';
import type { CreateLinkResult, Link } from '../../../core/link-store.js';
import type { LinkChangeEvent, ServerLinkStore } from '../change-feed.js';
import type { OnMigrated } from '../schema-version.js';
import { createPrivateDatabaseFile } from './private-files.js';
import { createSqliteChangeFeed } from './sqlite-change-feed.js';
import {
  CLICK_COMMITTER_ARGS,
  type ClickCommitterArgs,
  createClickCommitter,
  createSqliteClickReads,
  type SqliteClickBatch,
  sqliteClickBatch,
} from './sqlite-clicks.js';
import { createSqliteLinkManagement } from './sqlite-link-management.js';
import { LINK_COLUMNS, type LinkRow, linkFromRow } from './sqlite-link-row.js';
import { migrateSqlite, refuseNewerSqliteSchema } from './sqlite-migrate.js';
import { createSqliteVisitReads } from './sqlite-visits.js';
import { switchToWal } from './switch-to-wal.js';
import { startWriterThread } from './writer-thread.js';

interface PendingCreate {
  link: Link;
  now: number;
  resolve: (result: CreateLinkResult) => void;
  reject: (error: unknown) => void;
}

// One statement claims the code: insert, or take over a holder that has expired (its owner,
// changes and disabled flag go with it, and its clicks start again from 0). The link gets a new id
// either way, so a retaken code never shows its previous holder's daily clicks (a trigger drops
// them). `updated_at` is the creation time unless the link says otherwise (an import keeps its
// source's creation time but is a change made now).
const CLAIM_SQL = `INSERT INTO links (code_key, code, original_url, created_at, expires_at, owner_id, updated_at, disabled, id, password_hash, title, tags)
  VALUES (@codeKey, @code, @originalUrl, @createdAt, @expiresAt, @ownerId, @updatedAt, 0, @id, @passwordHash, @title, @tags)
  ON CONFLICT (code_key) DO UPDATE SET
    code = excluded.code, original_url = excluded.original_url,
    created_at = excluded.created_at, expires_at = excluded.expires_at,
    owner_id = excluded.owner_id, updated_at = excluded.updated_at, disabled = 0, clicks = 0, id = excluded.id,
    password_hash = excluded.password_hash, title = excluded.title, tags = excluded.tags
  WHERE links.expires_at <= @now`;
// Ids for a whole batch in one statement: the batch's claims take the ids up to the one returned.
const RESERVE_IDS_SQL = 'UPDATE link_ids SET last = last + ? RETURNING last';
const HOLDER_SQL = 'SELECT expires_at FROM links WHERE code_key = ?';

type BatchItem = { link: Link; now: number };
type CommitterSql = { claimSql: string; holderSql: string; reserveIdsSql: string };
const COMMITTER_SQL: CommitterSql = { claimSql: CLAIM_SQL, holderSql: HOLDER_SQL, reserveIdsSql: RESERVE_IDS_SQL };
/**
 * What a claim came to: made, or the holder's expiry. Not the link: the caller has it already,
 * and from the writer thread every result is copied back (a link each was a clone per create).
 */
type ClaimOutcome = { created: true } | { created: false; holderExpiresAt: number };
type CommitBatch = (batch: BatchItem[]) => ClaimOutcome[];
/** What the writer is posted: a batch of creates, or one batch of clicks alone. */
type WriterItem = BatchItem | { clicks: SqliteClickBatch };
type WriterArgs = { claims: CommitterSql; clicks: ClickCommitterArgs };
const WRITER_ARGS: WriterArgs = { claims: COMMITTER_SQL, clicks: CLICK_COMMITTER_ARGS };
type CommitWriterBatch = (batch: WriterItem[]) => Array<ClaimOutcome | null>;

/** The writer's committer as source text: creates and clicks, each kind its own transaction. */
const WRITER_SETUP = `(db, args) => {
  const claims = (${createBatchCommitter.toString()})(db, args.claims);
  const clicks = (${createClickCommitter.toString()})(db, args.clicks);
  return (batch) => (batch.length === 1 && 'clicks' in batch[0] ? [clicks(batch[0].clicks)] : claims(batch));
}`;
/** What `WRITER_SETUP` makes, made here: an in-memory database commits on its only connection. */
const startCommitter = (db: Database.Database, args: WriterArgs): CommitWriterBatch => {
  const claims = createBatchCommitter(db, args.claims);
  const clicks = createClickCommitter(db, args.clicks);
  return (batch) => {
    const first = batch[0];
    return batch.length === 1 && first && 'clicks' in first ? [clicks(first.clicks)] : claims(batch as BatchItem[]);
  };
};

/**
 * Group commit on one connection: the batch's claims run in one BEGIN IMMEDIATE transaction, in
 * order, each its own atomic statement, and the whole batch costs one fsync. It refers to
 * nothing outside itself, because the writer thread runs its source text (see writer-thread.ts).
 */
function createBatchCommitter(
  db: Database.Database,
  { claimSql, holderSql, reserveIdsSql }: CommitterSql,
): CommitBatch {
  const claim = db.prepare(claimSql);
  const holderExpiry = db.prepare(holderSql).pluck();
  const reserveIds = db.prepare(reserveIdsSql).pluck();
  const made = { created: true } as const;
  const claimOrReport = (link: Link, now: number, id: number): ClaimOutcome => {
    const { codeKey, code, originalUrl, createdAt, expiresAt } = link;
    const updatedAt = link.updatedAt ?? createdAt;
    const ownerId = link.ownerId ?? null;
    const passwordHash = link.passwordHash ?? null;
    const title = link.title ?? null;
    // Inline (this runs as source text on the writer thread): `tagsToText`'s rule.
    const tags = link.tags && link.tags.length > 0 ? link.tags.join(' ') : null;
    const params = {
      codeKey,
      code,
      originalUrl,
      createdAt,
      expiresAt,
      ownerId,
      updatedAt,
      now,
      id,
      passwordHash,
      title,
      tags,
    };
    if (claim.run(params).changes === 1) return made;
    const holderExpiresAt = holderExpiry.get(link.codeKey) as number | undefined;
    if (holderExpiresAt === undefined) {
      throw new Error(`Link ${link.codeKey} neither inserted nor held; the database may be corrupt.`);
    }
    return { created: false, holderExpiresAt };
  };
  const transaction = db.transaction((batch: BatchItem[]) => {
    const first = (reserveIds.get(batch.length) as number) - batch.length + 1;
    return batch.map(({ link, now }, i) => claimOrReport(link, now, first + i));
  });
  return (batch) => transaction.immediate(batch);
}

/**
 * The server's default store: one SQLite file through better-sqlite3. WAL lets readers run
 * beside the writer, `synchronous=FULL` makes every acknowledged link survive a power cut, and
 * the busy timeout lets several processes share the file. Its folder is created if missing.
 *
 * Reads run on the calling thread (a B-tree lookup, microseconds). Creates are group-committed:
 * those that arrive while a commit is under way wait and go together in the next transaction, so
 * one fsync serves them all, and no caller hears back before the commit that holds its link.
 * The commits run on a writer thread with a connection of its own (an in-memory database has
 * only the one connection, so it commits in place).
 */
export function createSqliteLinkStore(path: string, options: SqliteOptions = {}): ServerLinkStore {
  const db = openSqliteDatabase(path, options);
  const byCodeKey = db.prepare<[string], LinkRow>(`SELECT ${LINK_COLUMNS} FROM links WHERE code_key = ?`).raw();
  const ping = db.prepare('SELECT 1');
  const reads = createTurnReads(path, options, db);
  const onThread = path !== ':memory:' && options.writerThread !== false;
  const writer = onThread
    ? startWriterThread<WriterItem, ClaimOutcome | null>({
        path,
        pragmas: connectionPragmas(options),
        setup: WRITER_SETUP,
        args: WRITER_ARGS,
      })
    : undefined;
  const commitInPlace = onThread ? undefined : startCommitter(db, WRITER_ARGS);

  let pending: PendingCreate[] = [];
  let committing: Promise<void> | undefined;
  let scheduled = false;
  const commitBatch = async (batch: PendingCreate[]) => {
    const items = batch.map(({ link, now }) => ({ link, now }));
    try {
      const results = writer ? await writer.commit(items) : (commitInPlace as CommitWriterBatch)(items);
      reads.end(); // a link acknowledged from here on is seen by the next redirect
      for (const [i, item] of batch.entries()) {
        const outcome = results[i] as ClaimOutcome;
        // The caller's link, copied so that the store keeps nothing the caller can change.
        item.resolve(outcome.created ? { created: true, link: { ...item.link } } : outcome);
      }
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  };
  // One batch in flight at a time; the creates that come in meanwhile form the next one.
  const flush = async (): Promise<void> => {
    scheduled = false;
    if (committing) return;
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      committing = commitBatch(batch);
      await committing;
    }
    committing = undefined;
  };

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
  return {
    ...management,
    // A change made here is seen by the next redirect read, even in the same turn.
    updateLink: (...args) => management.updateLink(...args).finally(reads.end),
    deleteLink: (...args) => management.deleteLink(...args).finally(reads.end),
    clicksOf: createSqliteClickReads(db),
    ...createSqliteVisitReads(db),
    async addClicks(batch) {
      const item = [{ clicks: sqliteClickBatch(batch) }];
      if (writer) await writer.commit(item);
      else (commitInPlace as CommitWriterBatch)(item);
    },
    changes,
    create(link, now) {
      return new Promise((resolve, reject) => {
        pending.push({ link, now, resolve, reject });
        if (!scheduled && !committing) {
          // Gather the creates of this event-loop turn before committing.
          scheduled = true;
          setImmediate(() => void flush());
        }
      });
    },
    async findByCodeKey(codeKey) {
      const row = byCodeKey.get(codeKey);
      return row && linkFromRow(codeKey, row);
    },
    // The same read without its promise: the cache's misses at a million links are mostly this
    // read, and a promise and a microtask per miss were a tenth of its cost.
    lookup(codeKey) {
      const row = reads.byCodeKey(codeKey);
      return row && linkFromRow(codeKey, row);
    },
    async ping() {
      ping.get();
      await writer?.ping(); // a writer thread that cannot run means no create can succeed
    },
    async close() {
      // Creates already asked for are committed, not dropped.
      while (committing || pending.length > 0) await (committing ?? flush());
      await writer?.close();
      feed.close();
      reads.close();
      if (db.open) db.close();
    },
  };
}

/**
 * Redirect reads on a connection of their own, inside one read transaction per turn of the event
 * loop (begun by the turn's first read, ended by `setImmediate` or sooner by `end`). An
 * autocommit read takes and drops WAL locks and stats the file each time (two `fcntl` and an
 * `fstat`): a third of a miss's cost at a million links. The snapshot is let go after every
 * create's commit, every change made here and before every change another process made is told,
 * so no acknowledged change is ever read as it was. An in-memory database reads in place.
 */
function createTurnReads(path: string, options: SqliteOptions, db: Database.Database) {
  const reader = path === ':memory:' ? undefined : new Database(path, { fileMustExist: true });
  reader?.pragma(`busy_timeout = ${options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
  const select = (reader ?? db)
    .prepare<[string], LinkRow>(`SELECT ${LINK_COLUMNS} FROM links WHERE code_key = ?`)
    .raw();
  const begin = reader?.prepare('BEGIN');
  const commit = reader?.prepare('COMMIT');
  let reading = false;
  const end = () => {
    if (!reading) return;
    reading = false;
    if (reader?.inTransaction) commit?.run();
  };
  return {
    byCodeKey(codeKey: string): LinkRow | undefined {
      if (begin && !reading) {
        begin.run();
        reading = true;
        setImmediate(end);
      }
      return select.get(codeKey);
    },
    end,
    close() {
      end();
      reader?.close();
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

/** Every connection's settings: the busy timeout, a flush to disk at each commit (WAL is the file's). */
const connectionPragmas = (options: SqliteOptions) => [
  `busy_timeout = ${options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`,
  'synchronous = FULL',
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
    for (const pragma of connectionPragmas(options)) db.pragma(pragma);
    refuseNewerSqliteSchema(db);
    switchToWal(db, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
    migrateSqlite(db, options.onMigrated);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
