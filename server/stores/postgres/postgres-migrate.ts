import { createHash } from 'node:crypto';
import pg from 'pg';
import { catalogOf, detectVersion, migrationFailed, NewerSchemaError, type OnMigrated } from '../schema-version.js';
import { postgresMigrations } from './postgres-migrations.js';

/** The schema version this server writes: the length of its migration list. */
export const POSTGRES_SCHEMA_VERSION = postgresMigrations('').length;

/**
 * The advisory lock key of one schema's migrations: instances starting on one schema take turns,
 * while stores in other schemas (parallel tests, two Linklets on one database) never wait on it.
 */
export function migrationLockKey(schema: string): string {
  const digest = createHash('sha256').update(`linklet migrations ${schema}`).digest();
  return digest.readBigInt64BE(0).toString();
}

// Releases before schema 5 migrated every schema under this one key, in one transaction. Each
// step takes it too (for its transaction only), so an older release starting beside this one
// (a rolling update) never runs a step at the same time; other schemas wait at most one step.
const LEGACY_LOCK_KEY = 0x4c4e4b4c;

/** `body` in a transaction that holds the lock older releases migrate under. */
async function inStep<T>(client: pg.ClientBase, body: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [LEGACY_LOCK_KEY]);
    const result = await body();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** The schema Linklet's tables live in: the one asked for, or the search path's first. */
async function targetSchema(client: pg.ClientBase, schema: string | undefined): Promise<string> {
  if (schema !== undefined) return schema;
  const found = (await client.query<{ name: string | null }>('SELECT current_schema() AS name')).rows[0]?.name;
  if (found) return found;
  throw new Error(
    "None of the schemas in the connection's search_path exists, so Linklet has nowhere to keep its tables. " +
      'Create the schema (CREATE SCHEMA linklet) or fix search_path in the connection string.',
  );
}

/** The highest version recorded in `linklet_schema_version`, or undefined when there is no such table. */
async function recordedVersion(client: pg.ClientBase, schema: string): Promise<number | undefined> {
  const table = await client.query(
    "SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'linklet_schema_version'",
    [schema],
  );
  if (table.rowCount === 0) return undefined;
  const { rows } = await client.query<{ v: number }>(
    `SELECT coalesce(max(version), 0)::int AS v FROM ${pg.escapeIdentifier(schema)}.linklet_schema_version`,
  );
  return rows[0]?.v ?? 0;
}

async function postgresCatalog(client: pg.ClientBase, schema: string) {
  const { rows } = await client.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1
     UNION ALL
     SELECT 'trigger ' || trigger_name, event_object_table, 'trigger' FROM information_schema.triggers
     WHERE trigger_schema = $1
     UNION ALL
     SELECT 'index ' || indexname::text, tablename::text,
       CASE WHEN indexdef LIKE '% WHERE %' THEN 'partial' ELSE 'full' END FROM pg_indexes
     WHERE schemaname = $1`,
    [schema],
  );
  return catalogOf(rows);
}

/**
 * Brings the schema's tables to `POSTGRES_SCHEMA_VERSION` under a session advisory lock of that
 * schema, so instances starting together migrate once: the others wait, then find it done. Each
 * migration runs in its own transaction with its row in `linklet_schema_version`. Tables with no
 * version table beside them (a partial `pg_dump`) are recognised by their shape and continued
 * from there, never recreated. A newer schema is refused before anything is created or changed.
 */
export async function migratePostgres(
  client: pg.ClientBase,
  schema: string | undefined,
  onMigrated?: OnMigrated,
): Promise<void> {
  const name = await targetSchema(client, schema);
  const prefix = `${pg.escapeIdentifier(name)}.`;
  const versions = `${prefix}linklet_schema_version`;
  const migrations = postgresMigrations(prefix);
  const key = migrationLockKey(name);
  await client.query('SELECT pg_advisory_lock($1::bigint)', [key]);
  try {
    const recorded = await recordedVersion(client, name);
    if (recorded !== undefined && recorded > migrations.length) throw new NewerSchemaError(recorded, migrations.length);
    if (recorded === undefined) {
      // Checked first because CREATE SCHEMA IF NOT EXISTS demands database CREATE rights even
      // when the schema exists, and an operator may have pre-created it for a restricted role.
      const found = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [name]);
      if (found.rowCount === 0) await client.query(`CREATE SCHEMA ${pg.escapeIdentifier(name)}`);
      await inStep(client, async () => {
        if ((await recordedVersion(client, name)) !== undefined) return; // an older release just made it
        const detected = detectVersion(migrations, await postgresCatalog(client, name));
        await client.query(
          `CREATE TABLE ${versions} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
        );
        await client.query(`INSERT INTO ${versions} (version) SELECT generate_series(1, $1::int)`, [detected]);
      });
    }
    for (;;) {
      const step = await inStep(client, async () => {
        // Read again under the lock: an older release may have run a step meanwhile.
        const version = (await recordedVersion(client, name)) ?? 0;
        if (version > migrations.length) throw new NewerSchemaError(version, migrations.length);
        const migration = migrations[version];
        if (migration === undefined) return undefined;
        try {
          await client.query(migration.sql);
          await client.query(`INSERT INTO ${versions} (version) VALUES ($1)`, [version + 1]);
        } catch (error) {
          throw migrationFailed(version + 1, migration.what, error);
        }
        return { version: version + 1, what: migration.what, latest: migrations.length };
      });
      if (step === undefined) break;
      onMigrated?.(step);
    }
  } finally {
    // A connection that failed takes its session lock with it; the pool then discards it.
    await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => {});
  }
}
