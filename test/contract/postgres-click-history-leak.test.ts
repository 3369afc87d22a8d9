import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { createPostgresLinkStore } from '../../server/stores/postgres/postgres-link-store.js';
import { describeClickHistoryLeak } from '../api/click-history-leak.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `linklet_test_${randomUUID().replaceAll('-', '')}`;

afterAll(async () => {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
  await client.end();
});

describeClickHistoryLeak('postgres', () =>
  createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 2 }),
);
