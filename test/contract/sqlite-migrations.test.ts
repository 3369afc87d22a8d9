import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Link } from '../../core/store/link-store.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';
import { SQLITE_MIGRATIONS } from '../../server/stores/sqlite/sqlite-migrations.js';
import { C, clickDaysKept, D, expectOldRowsRead, FAR, HASH, KEEP } from './legacy-rows.js';
import { makeOldSqlite, OLD_SQLITE_VERSIONS } from './legacy-schemas.js';
import { seedSqliteVisits } from './legacy-visits.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-sqlite-migrations-'));
let files = 0;
const freshPath = () => join(dir, `${++files}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The schema each feature came with: a file is seeded and checked for what its version can hold. */
const SINCE = { owners: 2, clicks: 3, linkIds: 4, visits: 5, passwords: 6, labels: 7, packedVisits: 8, clickTotals: 9 };

/** Rows an earlier release could have written at `version`: two links, an owner with a key, clicks, visits. */
function seed(db: Database.Database, version: number) {
  const insert = db.prepare(
    'INSERT INTO links (code_key, code, original_url, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
  );
  insert.run('keep', 'Keep', 'https://example.com/keep', C, FAR);
  insert.run('retaken', 'retaken', 'https://example.com/retaken', C + 1, FAR);
  if (version >= SINCE.owners) {
    db.exec(`INSERT INTO owners (id, name, created_at) VALUES (1, 'alice', ${C});
      INSERT INTO api_keys (id, owner_id, key_hash, created_at) VALUES (1, 1, 'hash-of-alice', ${C});
      UPDATE links SET owner_id = 1, disabled = 1, updated_at = ${C + 5} WHERE code_key = 'keep'`);
  }
  if (version >= SINCE.clicks) seedClicks(db, version);
  if (version >= SINCE.visits) seedSqliteVisits(db, idOf(db, 'keep'), version >= SINCE.packedVisits);
  if (version >= SINCE.passwords) db.prepare("UPDATE links SET password_hash = ? WHERE code_key = 'keep'").run(HASH);
  if (version >= SINCE.labels)
    db.exec("UPDATE links SET title = 'Keep this', tags = 'work news' WHERE code_key = 'keep'");
}

const idOf = (db: Database.Database, codeKey: string) =>
  db.prepare('SELECT id FROM links WHERE code_key = ?').pluck().get(codeKey) as number;

/** 'keep' clicked 3 times one day and 2 the next, 'retaken' once. */
function seedClicks(db: Database.Database, version: number) {
  if (version >= SINCE.clickTotals) {
    const total = db.prepare('INSERT INTO link_click_totals (link_id, clicks) VALUES (?, ?)');
    total.run(idOf(db, 'keep'), 5);
    total.run(idOf(db, 'retaken'), 1);
  } else {
    db.exec(`UPDATE links SET clicks = 5 WHERE code_key = 'keep';
      UPDATE links SET clicks = 1 WHERE code_key = 'retaken'`);
  }
  if (version >= SINCE.linkIds) {
    const day = db.prepare('INSERT INTO link_click_days (link_id, day, clicks) VALUES (?, ?, ?)');
    day.run(idOf(db, 'keep'), D, 3);
    day.run(idOf(db, 'keep'), D + 1, 2);
    day.run(idOf(db, 'retaken'), D, 1);
    return;
  }
  // 'retaken' was taken over by an import with its previous holder's creation time: its total
  // restarted at 1, but the 7 clicks of the day before stayed under (code, created_at).
  db.exec(`INSERT INTO link_click_days VALUES ('keep', ${C}, ${D}, 3), ('keep', ${C}, ${D + 1}, 2),
    ('retaken', ${C + 1}, ${D}, 7), ('gone', ${C}, ${D}, 9)`);
}

/** Tables (with STRICT and WITHOUT ROWID), columns, indexes and triggers: what a schema is, not how its SQL was spelled. */
function structureOf(path: string) {
  const db = new Database(path, { readonly: true });
  const objects = db
    .prepare("SELECT type, name, tbl_name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
    .all() as Array<{ type: string; name: string; tbl_name: string }>;
  const structure = objects.map(({ type, name, tbl_name }) => ({
    type,
    name,
    tbl_name,
    table: type === 'table' ? db.pragma(`table_list(${name})`) : undefined,
    columns: type === 'table' ? db.pragma(`table_xinfo(${name})`) : undefined,
    indexed: type === 'index' ? db.pragma(`index_xinfo(${name})`) : undefined,
    // Whether an index has a WHERE clause, which index_xinfo does not say (schema 11 is only that).
    partial:
      type === 'index'
        ? db.prepare('SELECT partial FROM pragma_index_list(?) WHERE name = ?').pluck().get(tbl_name, name)
        : undefined,
  }));
  const version = db.pragma('user_version', { simple: true });
  db.close();
  return { version, structure };
}

const raw = <T>(path: string, sql: string): T[] => {
  const db = new Database(path, { readonly: true });
  const rows = db.prepare(sql).all() as T[];
  db.close();
  return rows;
};

describe('sqlite migrations', () => {
  const freshStructure = (() => {
    let made: ReturnType<typeof structureOf> | undefined;
    return async () => {
      if (made) return made;
      const path = freshPath();
      await createSqliteLinkStore(path).close();
      made = structureOf(path);
      return made;
    };
  })();

  for (const version of OLD_SQLITE_VERSIONS) {
    for (const unversioned of [false, true]) {
      it(`brings a schema-${version} file${unversioned ? ' with no user_version (restored from .dump)' : ''} to today's shape in place, keeping every row`, async () => {
        const path = freshPath();
        const old = makeOldSqlite(path, version, { unversioned });
        seed(old, version);
        old.close();

        const steps: number[] = [];
        const store = createSqliteLinkStore(path, { onMigrated: (step) => steps.push(step.version) });
        expect(steps).toEqual(SQLITE_MIGRATIONS.map((_, index) => index + 1).filter((step) => step > version));
        const has = (feature: keyof typeof SINCE) => version >= SINCE[feature];
        await expectOldRowsRead(store, has);
        expect((await store.create({ ...KEEP, code: 'new', codeKey: 'new' }, C)).created).toBe(true);
        await store.close();

        expect(structureOf(path)).toEqual(await freshStructure());
        const ids = raw<{ id: number }>(path, 'SELECT id FROM links ORDER BY id').map((row) => row.id);
        expect(new Set(ids).size).toBe(3);
        expect(Math.min(...ids)).toBeGreaterThan(0);
        expect(raw(path, 'SELECT link_id, day, clicks FROM link_click_days')).toHaveLength(clickDaysKept(has));
      });
    }
  }

  it("recognises today's shape with no user_version: records it and runs no step", async () => {
    const path = freshPath();
    await createSqliteLinkStore(path).close();
    const db = new Database(path);
    db.pragma('user_version = 0');
    db.close();
    const steps: number[] = [];
    await createSqliteLinkStore(path, { onMigrated: (step) => steps.push(step.version) }).close();
    expect(steps).toEqual([]);
    expect(structureOf(path)).toEqual(await freshStructure());
  });

  it('refuses a file a newer Linklet wrote, naming both schemas, and leaves it byte for byte', async () => {
    const folder = join(dir, 'newer');
    mkdirSync(folder);
    const path = join(folder, 'links.db');
    const made = createSqliteLinkStore(path);
    await made.create(
      { code: 'x', codeKey: 'x', originalUrl: 'https://example.com/', createdAt: C, expiresAt: FAR },
      C,
    );
    await made.close();
    const newer = new Database(path);
    newer.pragma(`user_version = ${SQLITE_MIGRATIONS.length + 2}`);
    newer.pragma('journal_mode = DELETE'); // so even the switch to WAL would show in the bytes
    newer.close();
    const before = { files: readdirSync(folder), bytes: readFileSync(path) };

    expect(() => createSqliteLinkStore(path)).toThrow(
      `This database was written by a newer Linklet (schema ${SQLITE_MIGRATIONS.length + 2}); this server knows schema ${SQLITE_MIGRATIONS.length}. Update the server`,
    );
    expect({ files: readdirSync(folder), bytes: readFileSync(path) }).toEqual(before);
  });

  it('runs each step in a transaction of its own: a failing step is undone and named, the ones before it kept', async () => {
    const path = freshPath();
    const old = makeOldSqlite(path, 3);
    seed(old, 3);
    old.exec('CREATE TABLE link_click_days_by_code (x)'); // in the way of step 4's rename
    old.close();
    expect(() => createSqliteLinkStore(path)).toThrow(
      /^Upgrading the database to schema 4 \(daily clicks .*\) failed: .*rolled back/,
    );
    expect(raw(path, 'PRAGMA user_version')).toEqual([{ user_version: 3 }]);
    expect(raw<{ name: string }>(path, 'PRAGMA table_info(links)').map((column) => column.name)).not.toContain('id');
  });

  it("drops a link's daily clicks from the file when its code is retaken or it is deleted", async () => {
    const path = freshPath();
    const store = createSqliteLinkStore(path);
    const link = (code: string, expiresAt: number): Link => ({
      code,
      codeKey: code,
      originalUrl: 'https://example.com/',
      createdAt: C,
      expiresAt,
    });
    await store.create(link('short', C + 1000), C);
    await store.create(link('doomed', FAR), C);
    await store.addClicks({ day: D, codeKeys: ['short', 'doomed'], counts: [4, 6] });
    expect(raw(path, 'SELECT * FROM link_click_days')).toHaveLength(2);
    expect((await store.create(link('short', FAR), C + 2000)).created).toBe(true);
    expect(await store.deleteLink('doomed', { all: true }, C + 3000)).toBe(true);
    expect(raw(path, 'SELECT * FROM link_click_days')).toEqual([]);
    await store.close();
  });

  it('gives a link a script inserted without an id (seeding, a raw INSERT) an id of its own', async () => {
    const path = freshPath();
    await createSqliteLinkStore(path).close();
    const db = new Database(path);
    const insert = db.prepare(
      'INSERT INTO links (code_key, code, original_url, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    );
    for (const code of ['a', 'b', 'c']) insert.run(code, code, 'https://example.com/', C, FAR);
    db.close();
    const store = createSqliteLinkStore(path);
    await store.create(
      { code: 'd', codeKey: 'd', originalUrl: 'https://example.com/', createdAt: C, expiresAt: FAR },
      C,
    );
    await store.close();
    expect(raw<{ id: number }>(path, 'SELECT id FROM links ORDER BY id').map((row) => row.id)).toEqual([1, 2, 3, 4]);
  });
});
