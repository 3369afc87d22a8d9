import type Database from 'better-sqlite3';
import { catalogOf, detectVersion, migrationFailed, NewerSchemaError, type OnMigrated } from '../schema-version.js';
import { SQLITE_MIGRATIONS } from './sqlite-migrations.js';

/** The schema version this server writes: the length of its migration list. */
export const SQLITE_SCHEMA_VERSION = SQLITE_MIGRATIONS.length;

const recordedVersion = (db: Database.Database) => db.pragma('user_version', { simple: true }) as number;

/**
 * Refuses a database a newer Linklet wrote, before anything (even the switch to WAL) writes to
 * it: this server cannot know what the newer steps changed, and an older one must not undo them.
 */
export function refuseNewerSqliteSchema(db: Database.Database): void {
  const recorded = recordedVersion(db);
  if (recorded > SQLITE_SCHEMA_VERSION) throw new NewerSchemaError(recorded, SQLITE_SCHEMA_VERSION);
}

/** Tables, columns, triggers and indexes as `schema-version.ts` reads them. */
function sqliteCatalog(db: Database.Database) {
  return catalogOf(
    db
      .prepare(
        `SELECT m.name AS table_name, p.name AS column_name, p.type AS data_type
         FROM sqlite_schema m, pragma_table_info(m.name) p WHERE m.type = 'table'
         UNION ALL
         SELECT 'trigger ' || name, tbl_name, 'trigger' FROM sqlite_schema WHERE type = 'trigger'
         UNION ALL
         SELECT 'index ' || i.name, m.name, CASE i.partial WHEN 1 THEN 'partial' ELSE 'full' END
         FROM sqlite_schema m, pragma_index_list(m.name) i WHERE m.type = 'table'`,
      )
      .all() as Array<{ table_name: string; column_name: string; data_type: string }>,
  );
}

/**
 * Brings a database to `SQLITE_SCHEMA_VERSION`, one migration per IMMEDIATE transaction together
 * with its `user_version`, so a crash or a failure leaves it at a whole step. Each step reads the
 * version again under the write lock: processes starting together on one file apply each step
 * once. A database that records no version but has tables (restored from a `.dump`, which drops
 * `user_version`) is recognised by its shape and continued from there, never recreated.
 */
export function migrateSqlite(db: Database.Database, onMigrated?: OnMigrated): void {
  // Up to date: no write lock needed, so a read-only database still opens (and serves redirects;
  // creates then answer 503).
  if (recordedVersion(db) === SQLITE_SCHEMA_VERSION) return;
  refuseNewerSqliteSchema(db);
  const step = db.transaction((): Parameters<OnMigrated>[0] | undefined => {
    let version = recordedVersion(db);
    if (version === 0) version = detectVersion(SQLITE_MIGRATIONS, sqliteCatalog(db));
    if (version > SQLITE_SCHEMA_VERSION) throw new NewerSchemaError(version, SQLITE_SCHEMA_VERSION);
    const migration = SQLITE_MIGRATIONS[version];
    if (migration === undefined) {
      // Up to date (another process got here first) or recognised as such: record it.
      if (recordedVersion(db) !== version) db.exec(`PRAGMA user_version = ${version}`);
      return undefined;
    }
    try {
      db.exec(migration.sql);
    } catch (error) {
      throw migrationFailed(version + 1, migration.what, error);
    }
    db.exec(`PRAGMA user_version = ${version + 1}`);
    return { version: version + 1, what: migration.what, latest: SQLITE_SCHEMA_VERSION };
  });
  for (let done = step.immediate(); done !== undefined; done = step.immediate()) onMigrated?.(done);
}
