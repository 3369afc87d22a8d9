import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A PostgreSQL schema of the calling test file's own, made before its tests and dropped after,
 * so files running at once never see each other's tables. `url()` is `TEST_DATABASE_URL` with
 * that schema first on every connection's search path (what a server process is given);
 * `admin` is a connection outside it, for the tests' own reads and writes.
 */
export function usePostgresSchema(prefix: string) {
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  beforeAll(async () => {
    await admin.connect().catch((error: Error) => {
      throw new Error(`PostgreSQL at TEST_DATABASE_URL (${TEST_DATABASE_URL}) is not reachable: ${error.message}`);
    });
    await admin.query(`CREATE SCHEMA ${schema}`);
  });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });
  const url = () => {
    const url = new URL(TEST_DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return url.toString();
  };
  return { schema, admin, url };
}
