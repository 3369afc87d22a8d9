import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runFailingServer } from '../../scripts/server-process.mjs';
import { postgresMigrations } from '../../server/stores/postgres/postgres-migrations.js';
import { SQLITE_MIGRATIONS } from '../../server/stores/sqlite/sqlite-migrations.js';

const PG_TODAY = postgresMigrations('').length;
const SQLITE_NEWER = SQLITE_MIGRATIONS.length + 1;

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const dir = mkdtempSync(join(tmpdir(), 'linklet-newer-schema-'));
const schema = `linklet_test_${randomUUID().replaceAll('-', '')}`;
const q = pg.escapeIdentifier(schema);

async function query(sql: string) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await query(`DROP SCHEMA IF EXISTS ${q} CASCADE`);
});

/** The server process itself, as an operator starts it after a downgrade. */
describe('a server started on a database from a newer Linklet', () => {
  it('exits 1 with both schemas named and leaves a SQLite file as it was', async () => {
    const path = join(dir, 'links.db');
    const newer = new Database(path);
    // exec, not pragma(): no prepared statement outlives the file (better-sqlite3 12 on Node 24
    // aborts a test worker that tears down with one still to be collected).
    newer.exec(
      `CREATE TABLE links (code_key TEXT PRIMARY KEY, a_future_column TEXT); PRAGMA user_version = ${SQLITE_NEWER}`,
    );
    newer.close();
    const before = { files: readdirSync(dir), bytes: readFileSync(path) };

    const { code, stderr } = await runFailingServer({ DATABASE_URL: `sqlite:${path}` });
    expect(code).toBe(1);
    expect(stderr).toContain(
      `This database was written by a newer Linklet (schema ${SQLITE_NEWER}); this server knows schema ${SQLITE_MIGRATIONS.length}. Update the server`,
    );
    expect({ files: readdirSync(dir), bytes: readFileSync(path) }).toEqual(before);
  });

  it('exits 1 with both schemas named and leaves a PostgreSQL schema as it was', async () => {
    await query(`CREATE SCHEMA ${q};
      CREATE TABLE ${q}.linklet_schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
      INSERT INTO ${q}.linklet_schema_version (version) SELECT generate_series(1, ${PG_TODAY + 2})`);
    const catalog = () =>
      query(`SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = '${schema}' ORDER BY c.relname`);
    const before = { catalog: await catalog(), versions: await query(`SELECT * FROM ${q}.linklet_schema_version`) };

    const url = new URL(DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const { code, stderr } = await runFailingServer({ DATABASE_URL: url.toString() });
    expect(code).toBe(1);
    expect(stderr).toContain(
      `This database was written by a newer Linklet (schema ${PG_TODAY + 2}); this server knows schema ${PG_TODAY}. Update the server`,
    );
    expect({ catalog: await catalog(), versions: await query(`SELECT * FROM ${q}.linklet_schema_version`) }).toEqual(
      before,
    );
  });
});
