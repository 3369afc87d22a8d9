/**
 * What the SQLite and PostgreSQL migration runners share: the shape of one migration, how an
 * unversioned database's shape is read from its catalog, and what a newer schema is told.
 */

/**
 * A database's tables and their columns (column name → declared type, lower case), its
 * triggers, each as an entry `trigger <name>` whose one column is the table it is on, and its
 * indexes, each as an entry `index <name>` whose one column is its table, of type `partial` (it
 * has a WHERE clause) or `full`.
 */
export type Catalog = Map<string, Map<string, string>>;

/** One step of a store's ordered migration list: entry i brings the schema to version i + 1. */
export interface Migration {
  /** What the step adds, for the log line and the docs ("owners, keys, change log"). */
  what: string;
  /** The statements, run in one transaction with the version record. */
  sql: string;
  /**
   * Whether a database already has what this step makes, judged from its catalog alone. Only
   * asked of a database that records no version (restored from a plain dump, say), so that it is
   * migrated from the shape it has instead of being recreated.
   */
  madeIn(catalog: Catalog): boolean;
}

/**
 * Told of each migration applied (the server logs it; tests count them): the version it brought
 * the database to, what it added, and the version this server writes (the last step's).
 */
export type OnMigrated = (step: { version: number; what: string; latest: number }) => void;

/** Whether `table` exists with every one of `columns`. */
export function hasColumns(catalog: Catalog, table: string, ...columns: string[]): boolean {
  const found = catalog.get(table);
  return found !== undefined && columns.every((column) => found.has(column));
}

/** Whether the trigger `name` exists (see `Catalog`). */
export function hasTrigger(catalog: Catalog, name: string): boolean {
  return catalog.has(`trigger ${name}`);
}

/** Whether the index `name` exists and covers only some rows (a WHERE clause; see `Catalog`). */
export function hasPartialIndex(catalog: Catalog, name: string): boolean {
  const index = catalog.get(`index ${name}`);
  return index !== undefined && [...index.values()].includes('partial');
}

/** A catalog from rows of (table, column, type), as both stores' catalog queries give them. */
export function catalogOf(rows: Iterable<{ table_name: string; column_name: string; data_type: string }>): Catalog {
  const catalog: Catalog = new Map();
  for (const { table_name, column_name, data_type } of rows) {
    const columns = catalog.get(table_name) ?? new Map<string, string>();
    columns.set(column_name, data_type.toLowerCase());
    catalog.set(table_name, columns);
  }
  return catalog;
}

/**
 * The version an unversioned database is at: how many migrations, from the first, it already
 * shows. Steps only ever ran whole and in order, so the first one missing ends the count.
 */
export function detectVersion(migrations: readonly Migration[], catalog: Catalog): number {
  const missing = migrations.findIndex((migration) => !migration.madeIn(catalog));
  return missing === -1 ? migrations.length : missing;
}

/**
 * A database written by a newer Linklet: this server cannot know what the newer steps changed,
 * so it must not serve (or write) it. The operator's way out is to update the server.
 */
export class NewerSchemaError extends Error {
  constructor(found: number, known: number) {
    super(
      `This database was written by a newer Linklet (schema ${found}); this server knows schema ${known}. ` +
        'Update the server to that release or later (or restore a backup made before the update); ' +
        'nothing in the database was changed.',
    );
    this.name = 'NewerSchemaError';
  }
}

/** A failed step, named, so the operator knows where the upgrade stopped and that it was undone. */
export function migrationFailed(version: number, what: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(
    `Upgrading the database to schema ${version} (${what}) failed: ${reason}. ` +
      'That step was rolled back, so the database is as the previous step left it; ' +
      'fix the cause (disk space, permissions) and start the server again.',
    { cause: error },
  );
}
