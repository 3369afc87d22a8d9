import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * Databases as earlier releases left them, built from the statements those releases ran (copied
 * into test/fixtures/schemas/, one file per schema step, named after the release that first ran
 * it), never from today's migration list: a change to a released step would then show up here as
 * a failure instead of being tested against itself.
 */
const FIXTURES = new URL('../fixtures/schemas/', import.meta.url);

/** The statements of the steps up to `version`, in order. */
function stepsUpTo(store: 'sqlite' | 'postgres', version: number): string[] {
  const folder = new URL(`${store}/`, FIXTURES);
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
  if (version > files.length) throw new Error(`No ${store} fixture for schema ${version}: only ${files.length}.`);
  return files.slice(0, version).map((name) => readFileSync(new URL(name, folder), 'utf8'));
}

/** The statements of one released step, as that release ran them. */
export const releasedStep = (store: 'sqlite' | 'postgres', version: number): string =>
  stepsUpTo(store, version)[version - 1] as string;

/** The highest schema an earlier release wrote, per store. */
export const OLD_SQLITE_VERSIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
export const OLD_POSTGRES_VERSIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

export interface LegacyOptions {
  /** Leave no version record (as a restore from `.dump` or a partial `pg_dump` does). */
  unversioned?: boolean;
}

/**
 * A SQLite file at `version`, in WAL mode as every release left it, with `user_version` set as
 * that release set it. Answers the open connection, for the test to add rows; close it after.
 */
export function makeOldSqlite(path: string, version: number, options: LegacyOptions = {}): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  for (const sql of stepsUpTo('sqlite', version)) db.exec(sql);
  if (!options.unversioned) db.pragma(`user_version = ${version}`);
  return db;
}

/**
 * A PostgreSQL schema at `version`, with `linklet_schema_version` as those releases kept it (a
 * row per step), made on `client` (its search path is set to the schema and left so, for the
 * test's rows).
 */
export async function makeOldPostgres(
  client: pg.ClientBase,
  schema: string,
  version: number,
  options: LegacyOptions = {},
): Promise<void> {
  const q = pg.escapeIdentifier(schema);
  await client.query(`CREATE SCHEMA ${q}; SET search_path TO ${q}`);
  for (const sql of stepsUpTo('postgres', version)) await client.query(sql);
  if (options.unversioned) return;
  await client.query(
    'CREATE TABLE linklet_schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  await client.query('INSERT INTO linklet_schema_version (version) SELECT generate_series(1, $1::int)', [version]);
}
