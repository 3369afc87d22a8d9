import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresLinkStore } from '../../server/stores/postgres/postgres-link-store.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `linklet_test_${randomUUID().replaceAll('-', '')}`;
// Only this test's connections carry this name, so ending them touches no other test's.
const applicationName = `linklet-bg-${randomUUID().slice(0, 8)}`;

async function adminQuery(sql: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}
afterAll(() => adminQuery(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`));

describe('PostgreSQL failures no request sees', () => {
  it('tells the server of an idle pooled connection the database ended, and carries on', async () => {
    const url = new URL(DATABASE_URL);
    url.searchParams.set('application_name', applicationName);
    const told: Error[] = [];
    const store = await createPostgresLinkStore({
      connectionString: url.toString(),
      schema,
      poolSize: 2,
      onBackgroundError: (error) => told.push(error),
    });
    try {
      await store.ping(); // leaves a connection idle in the pool
      const ended = await adminQuery(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND state = $2',
        [applicationName, 'idle'],
      );
      expect(ended.length).toBeGreaterThan(0);
      for (let waited = 0; told.length === 0 && waited < 5000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(told.length).toBeGreaterThan(0);
      expect(told[0]?.message).toMatch(/terminat/i);
      await store.ping(); // the pool reconnects
    } finally {
      await store.close();
    }
  });
});
