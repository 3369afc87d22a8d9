import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { CreateLinkResult, Link, LinkStore } from '../core/link-store.js';

/** Schema migrations, applied in order; `PRAGMA user_version` records how many have run. */
const MIGRATIONS = [
  `CREATE TABLE links (
     code_key     TEXT    NOT NULL PRIMARY KEY, -- the unique index on the canonical code
     code         TEXT    NOT NULL,
     original_url TEXT    NOT NULL,
     created_at   INTEGER NOT NULL,             -- epoch ms
     expires_at   INTEGER NOT NULL              -- epoch ms
   ) STRICT, WITHOUT ROWID`,
];

interface PendingCreate {
  link: Link;
  now: number;
  resolve: (result: CreateLinkResult) => void;
  reject: (error: unknown) => void;
}

interface LinkRow {
  code_key: string;
  code: string;
  original_url: string;
  created_at: number;
  expires_at: number;
}

const toLink = (row: LinkRow): Link => ({
  code: row.code,
  codeKey: row.code_key,
  originalUrl: row.original_url,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/**
 * The server's default store: one SQLite file through better-sqlite3. WAL lets readers run
 * beside the writer, `synchronous=FULL` makes every acknowledged link survive a power cut, and
 * the busy timeout lets several processes share the file. Its folder is created if missing.
 */
export function createSqliteLinkStore(path: string, options: SqliteOptions = {}): LinkStore {
  const db = openSqliteDatabase(path, options);

  // One statement claims the code: insert, or take over a holder that has expired.
  const claim = db.prepare<Link & { now: number }>(
    `INSERT INTO links (code_key, code, original_url, created_at, expires_at)
     VALUES (@codeKey, @code, @originalUrl, @createdAt, @expiresAt)
     ON CONFLICT (code_key) DO UPDATE SET
       code = excluded.code, original_url = excluded.original_url,
       created_at = excluded.created_at, expires_at = excluded.expires_at
     WHERE links.expires_at <= @now`,
  );
  const holderExpiry = db.prepare<[string], { expires_at: number }>('SELECT expires_at FROM links WHERE code_key = ?');
  const byCodeKey = db.prepare<[string], LinkRow>('SELECT * FROM links WHERE code_key = ?');
  const claimOrReport = (link: Link, now: number): CreateLinkResult => {
    if (claim.run({ ...link, now }).changes === 1) return { created: true, link: { ...link } };
    const holder = holderExpiry.get(link.codeKey);
    if (!holder) throw new Error(`Link ${link.codeKey} neither inserted nor held; the database may be corrupt.`);
    return { created: false, holderExpiresAt: holder.expires_at };
  };
  // Group commit: creates that arrive while the event loop is busy share one BEGIN IMMEDIATE
  // transaction and so one fsync. Each claim is still its own atomic statement, in arrival
  // order, and no caller hears back before the commit that holds its link.
  const commitBatch = db.transaction((batch: PendingCreate[]) =>
    batch.map(({ link, now }) => claimOrReport(link, now)),
  );
  let pending: PendingCreate[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    try {
      const results = commitBatch.immediate(batch);
      for (const [i, item] of batch.entries()) item.resolve(results[i] as CreateLinkResult);
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  };

  return {
    create(link, now) {
      return new Promise((resolve, reject) => {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ link, now, resolve, reject });
      });
    },
    async findByCodeKey(codeKey) {
      const row = byCodeKey.get(codeKey);
      return row && toLink(row);
    },
    async ping() {
      db.prepare('SELECT 1').get();
    },
    async close() {
      if (pending.length > 0) flush(); // creates already asked for are committed, not dropped
      if (db.open) db.close();
    },
  };
}

export interface SqliteOptions {
  /** How long a write waits for another process's lock before failing (default 5 s). */
  busyTimeoutMs?: number;
}

/** Opens (creating folder and file if needed), configures and migrates a Linklet database. */
export function openSqliteDatabase(path: string, options: SqliteOptions = {}): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  migrate(db);
  return db;
}

function migrate(db: Database.Database): void {
  db.transaction(() => {
    const applied = db.pragma('user_version', { simple: true }) as number;
    if (applied > MIGRATIONS.length) {
      throw new Error(
        `The database schema (version ${applied}) is newer than this Linklet (version ${MIGRATIONS.length}); upgrade Linklet.`,
      );
    }
    for (const sql of MIGRATIONS.slice(applied)) db.exec(sql);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
