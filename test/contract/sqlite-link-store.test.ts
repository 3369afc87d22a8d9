import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteLinkStore, openSqliteDatabase } from '../../server/sqlite-link-store.js';
import { describeLinkStoreContract } from './link-store-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-sqlite-'));
let files = 0;
const freshPath = () => join(dir, `store-${++files}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeLinkStoreContract('sqlite', async () => ({ store: createSqliteLinkStore(freshPath()) }));

describe('sqlite store on disk', () => {
  const link = { code: 'Keep', codeKey: 'keep', originalUrl: 'https://example.com', createdAt: 1, expiresAt: 2e12 };

  it('creates the folder, runs in WAL with synchronous=FULL, and keeps links across reopen', async () => {
    const path = join(dir, 'nested', 'deeper', 'links.db');
    const first = createSqliteLinkStore(path);
    await first.create(link, 10);
    await first.close();

    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
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

  it('refuses a database written by a newer Linklet instead of guessing', () => {
    const path = freshPath();
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    expect(() => createSqliteLinkStore(path)).toThrow(/newer than this Linklet/);
  });
});
