import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteLinkStore, openSqliteDatabase } from '../../server/stores/sqlite/sqlite-link-store.js';
import { SQLITE_MIGRATIONS } from '../../server/stores/sqlite/sqlite-migrations.js';
import { describeLinkStoreContract } from './link-store-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-sqlite-'));
let files = 0;
const freshPath = () => join(dir, `store-${++files}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Another process holding the write lock of a file still in rollback-journal mode (as a second
 * server does while it switches a new file to WAL), for `holdMs` or until killed.
 */
async function holdWriteLock(path: string, holdMs: number) {
  const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');
  const script = `const db = new (require(${JSON.stringify(betterSqlite3)}))(process.argv[1]);
    db.exec('BEGIN IMMEDIATE'); console.log('held');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`;
  const holder = spawn(process.execPath, ['-e', script, path, String(holdMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await once(holder.stdout, 'data');
  return holder;
}

describeLinkStoreContract('sqlite', async () => ({ store: createSqliteLinkStore(freshPath()) }));
describeLinkStoreContract('sqlite, committing on the calling thread', async () => ({
  store: createSqliteLinkStore(freshPath(), { writerThread: false }),
}));
describeLinkStoreContract('sqlite in memory', async () => ({ store: createSqliteLinkStore(':memory:') }));

describe('sqlite store on disk', () => {
  const link = { code: 'Keep', codeKey: 'keep', originalUrl: 'https://example.com', createdAt: 1, expiresAt: 2e12 };

  it('creates the folder, runs in WAL with synchronous=FULL, and keeps links across reopen', async () => {
    const path = join(dir, 'nested', 'deeper', 'links.db');
    const first = createSqliteLinkStore(path);
    await first.create(link, 10);
    await first.close();

    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(SQLITE_MIGRATIONS.length);
    raw.close();

    const again = createSqliteLinkStore(path);
    expect(await again.findByCodeKey('keep')).toEqual(link);
    await again.close();
  });

  it('configures every connection with synchronous=FULL and the busy timeout', () => {
    const db = openSqliteDatabase(freshPath(), { busyTimeoutMs: 1234 });
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // 2 = FULL
    expect(db.pragma('busy_timeout', { simple: true })).toBe(1234);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it("lets two connections to one file see each other's claims: one code, one winner", async () => {
    const path = freshPath();
    const a = createSqliteLinkStore(path);
    const b = createSqliteLinkStore(path);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).create({ ...link, originalUrl: `https://example.com/${i}` }, 10),
      ),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    await a.close();
    await b.close();
  });

  it('switches a new file to WAL once another process lets go of its write lock', async () => {
    // SQLite refuses this switch at once, without the busy handler: the store retries it.
    const path = freshPath();
    new Database(path).exec('CREATE TABLE other (x)').close();
    const holder = await holdWriteLock(path, 300);
    const db = openSqliteDatabase(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_MIGRATIONS.length);
    db.close();
    await once(holder, 'exit');
  });

  it('gives up on the WAL switch with SQLITE_BUSY after the busy timeout', async () => {
    const path = freshPath();
    new Database(path).exec('CREATE TABLE other (x)').close();
    const holder = await holdWriteLock(path, 60_000);
    try {
      expect(() => openSqliteDatabase(path, { busyTimeoutMs: 100 })).toThrow(
        expect.objectContaining({ code: 'SQLITE_BUSY' }),
      );
    } finally {
      holder.kill();
    }
  });

  it('migrates a version 1 file: its links keep everything and have no owner', async () => {
    const path = freshPath();
    const v1 = new Database(path);
    v1.exec(`CREATE TABLE links (code_key TEXT NOT NULL PRIMARY KEY, code TEXT NOT NULL, original_url TEXT NOT NULL,
      created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL) STRICT, WITHOUT ROWID`);
    v1.prepare('INSERT INTO links VALUES (?, ?, ?, ?, ?)').run('keep', 'Keep', link.originalUrl, 1, 2e12);
    v1.pragma('user_version = 1');
    v1.close();
    const store = createSqliteLinkStore(path);
    expect(await store.findByCodeKey('keep')).toEqual(link);
    expect((await store.listLinks({ scope: { all: true }, limit: 5, now: 10 })).map((found) => found.code)).toEqual([
      'Keep',
    ]);
    await store.close();
  });

  it('refuses a database written by a newer Linklet instead of guessing', () => {
    const path = freshPath();
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    expect(() => createSqliteLinkStore(path)).toThrow(
      `newer Linklet (schema 99); this server knows schema ${SQLITE_MIGRATIONS.length}`,
    );
  });

  it('reports a failed commit to its creates (SQLITE_BUSY from another process), then carries on', async () => {
    const path = freshPath();
    const store = createSqliteLinkStore(path, { busyTimeoutMs: 50 });
    await store.create({ ...link, code: 'first', codeKey: 'first' }, 10);
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE'); // another process holds the write lock past the busy timeout
    const blocked = await Promise.allSettled([
      store.create({ ...link, code: 'b1', codeKey: 'b1' }, 10),
      store.create({ ...link, code: 'b2', codeKey: 'b2' }, 10),
    ]);
    expect(blocked.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((blocked[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_BUSY' });
    other.exec('ROLLBACK');
    other.close();
    expect((await store.create({ ...link, code: 'b1', codeKey: 'b1' }, 10)).created).toBe(true);
    expect(await store.findByCodeKey('b2')).toBeUndefined();
    await store.close();
  });

  it('commits the creates already asked for when it closes', async () => {
    const path = freshPath();
    const store = createSqliteLinkStore(path);
    const creates = ['c1', 'c2', 'c3'].map((code) => store.create({ ...link, code, codeKey: code }, 10));
    await store.close();
    expect((await Promise.all(creates)).every((result) => result.created)).toBe(true);
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT count(*) AS n FROM links').get()).toEqual({ n: 3 });
    raw.close();
  });

  it('creates its folder 0700 and the database, -wal and -shm files 0600, whatever the umask allows', async () => {
    const folder = join(dir, 'private', 'nested');
    const path = join(folder, 'links.db');
    const umask = process.umask(0o022); // the usual one, under which SQLite alone makes 0644 files
    let store: ReturnType<typeof createSqliteLinkStore>;
    try {
      store = createSqliteLinkStore(path);
      await store.create(link, 1); // the -wal and -shm files exist while the store is open
    } finally {
      process.umask(umask);
    }
    const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);
    expect(mode(join(dir, 'private'))).toBe('700');
    expect(mode(folder)).toBe('700');
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(mode(file), file).toBe('600');
    await store.close();
  });

  it('leaves the mode of an existing database file as its owner set it', async () => {
    const path = freshPath();
    await createSqliteLinkStore(path).close();
    chmodSync(path, 0o640);
    const store = createSqliteLinkStore(path);
    expect((statSync(path).mode & 0o777).toString(8)).toBe('640');
    await store.close();
  });
});
