import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ensureRelease } from '../../scripts/release-build.mjs';
import { useServerProcesses } from '../server/use-server-processes.js';
import { expireInPostgres } from './expire-link.js';
import { BUILD_TIMEOUT_MS, RELEASES, runUpdate, UPDATE_TIMEOUT_MS } from './run-update.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const { start } = useServerProcesses('updates-postgres');
const admin = new pg.Client({ connectionString: DATABASE_URL });
const schemas: string[] = [];

beforeAll(async () => {
  await admin.connect().catch((error: Error) => {
    throw new Error(`PostgreSQL at TEST_DATABASE_URL (${DATABASE_URL}) is not reachable: ${error.message}`);
  });
});
afterAll(async () => {
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
});

/** A fresh schema, first on the search path of every connection of a server's pool. */
async function freshSchema(): Promise<{ schema: string; url: string }> {
  const schema = `linklet_update_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  schemas.push(schema);
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { schema, url: url.toString() };
}

describe.each(RELEASES)('updating from release $commit on PostgreSQL', ({ commit, features }) => {
  let releaseDir = '';
  beforeAll(async () => {
    releaseDir = await ensureRelease(commit);
  }, BUILD_TIMEOUT_MS);

  it(
    'keeps, lists, opens and counts every link made before, and takes new creates',
    async () => {
      const { schema, url } = await freshSchema();
      await runUpdate({
        commit,
        releaseDir,
        features,
        env: { DATABASE_URL: url },
        start,
        expire: (code) => expireInPostgres(DATABASE_URL, schema, code),
      });
    },
    UPDATE_TIMEOUT_MS,
  );
});
