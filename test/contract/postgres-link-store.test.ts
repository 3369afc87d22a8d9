import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { LinkStore } from '../../core/link-store.js';
import { createPostgresLinkStore } from '../../server/postgres-link-store.js';
import { describeLinkStoreContract, link, NOW } from './link-store-contract.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A schema nobody else uses, so tests (and parallel runs) never see each other's links. */
const freshSchema = () => `linklet_test_${randomUUID().replaceAll('-', '')}`;

/** Opens a store, turning an unreachable database into a failure that says what to set. */
async function openStore(schema: string): Promise<LinkStore> {
  try {
    return await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 5 });
  } catch (error) {
    throw new Error(
      `PostgreSQL tests cannot open a store using ${process.env.TEST_DATABASE_URL ? 'TEST_DATABASE_URL' : 'the default database (TEST_DATABASE_URL is unset)'}; ` +
        `start PostgreSQL there or set TEST_DATABASE_URL to a reachable server. Cause: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Runs one statement on its own connection, outside any store (setup, checks and cleanup). */
async function adminQuery<R extends pg.QueryResultRow>(sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

const dropSchema = (schema: string) => adminQuery(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);

describeLinkStoreContract('postgres', async () => {
  const schema = freshSchema();
  return { store: await openStore(schema), dispose: () => dropSchema(schema).then(() => {}) };
});

describe('postgres across instances', () => {
  const stores: LinkStore[] = [];
  const schemas: string[] = [];
  const open = async (schema: string) => {
    const store = await openStore(schema);
    stores.push(store);
    return store;
  };
  const newSchema = () => {
    const schema = freshSchema();
    schemas.push(schema);
    return schema;
  };
  afterAll(async () => {
    // Close first: DROP SCHEMA would otherwise wait on the stores' open connections' locks.
    for (const store of stores) await store.close().catch(() => {});
    // No store opened means no database to clean up, and a second error would bury the first.
    if (stores.length > 0) for (const schema of schemas) await dropSchema(schema);
  });

  it('lets exactly one of 40 simultaneous creates across two instances win', async () => {
    const schema = newSchema();
    const [first, second] = [await open(schema), await open(schema)];
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? first : second).create(link('shared', { originalUrl: `https://example.com/${i}` }), NOW),
      ),
    );
    const winners = results.filter((result) => result.created);
    expect(winners).toHaveLength(1);
    for (const result of results) {
      if (!result.created) expect(result.holderExpiresAt).toBe(NOW + 86_400_000);
    }
    const winner = winners[0]?.created ? winners[0].link : undefined;
    expect(await first.findByCodeKey('shared')).toEqual(winner);
    expect(await second.findByCodeKey('shared')).toEqual(winner);
  });

  it('migrates a new schema once when several instances start at the same moment', async () => {
    const schema = newSchema();
    const stores = await Promise.all([open(schema), open(schema), open(schema), open(schema)]);
    await stores[0]?.create(link('together'), NOW);
    for (const store of stores) expect((await store.findByCodeKey('together'))?.code).toBe('together');
    const versions = await adminQuery<{ version: number }>(
      `SELECT version FROM ${pg.escapeIdentifier(schema)}.linklet_schema_version ORDER BY version`,
    );
    expect(versions.map((row) => row.version)).toEqual([1]);
  });

  it('keeps the links when a store reopens an existing schema', async () => {
    const schema = newSchema();
    const kept = link('Kept', { createdAt: NOW + 3, expiresAt: NOW + 2_678_400_123 });
    const before = await open(schema);
    await before.create(kept, NOW);
    await before.close();
    const after = await open(schema);
    expect(await after.findByCodeKey('kept')).toEqual(kept);
    expect((await after.create(link('KEPT'), NOW + 1)).created).toBe(false);
  });
});
