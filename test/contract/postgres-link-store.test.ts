import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Link, LinkStore } from '../../core/store/link-store.js';
import { withLinkCache } from '../../server/stores/cache/link-cache.js';
import { isConnectionLost, postgresFaultOf } from '../../server/stores/postgres/postgres-errors.js';
import { createPostgresLinkStore, ensureDurableCommits } from '../../server/stores/postgres/postgres-link-store.js';
import { postgresMigrations } from '../../server/stores/postgres/postgres-migrations.js';
import { withFaultsAsUnavailable } from '../../server/stores/store-faults.js';
import { describeLinkStoreContract, link, NOW } from './link-store-contract.js';
import { type PostgresRelay, startPostgresRelay, throughRelay } from './postgres-relay.js';

/** Every schema step to today's, from the list itself. */
const STEPS = postgresMigrations('').map((_, index) => index + 1);

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A schema nobody else uses, so tests (and parallel runs) never see each other's links. */
const freshSchema = () => `linklet_test_${randomUUID().replaceAll('-', '')}`;

/** `DATABASE_URL` with these server settings for every connection (`-c name=value`). */
function withSettings(settings: Record<string, string>, url = DATABASE_URL): string {
  const withOptions = new URL(url);
  const options = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`);
  withOptions.searchParams.set('options', options.join(' '));
  return withOptions.toString();
}

/** Opens a store, turning an unreachable database into a failure that says what to set. */
async function openStore(schema: string, connectionString = DATABASE_URL): Promise<LinkStore> {
  try {
    return await createPostgresLinkStore({ connectionString, schema, poolSize: 5 });
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

/**
 * Makes `creates` go as one group: two lone creates take both claim slots first, and every create
 * asked for meanwhile waits for the next one. Answers the grouped creates' results, in order.
 */
async function createAsOneGroup(store: LinkStore, creates: Array<[Link, number]>) {
  const lone = [store.create(link('alone-1'), NOW), store.create(link('alone-2'), NOW)];
  const grouped = creates.map(([made, now]) => store.create(made, now));
  await Promise.all(lone);
  return Promise.all(grouped);
}

const dropSchema = (schema: string) => adminQuery(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);

/**
 * For a `describe` that opens stores in schemas of its own: `open` and `newSchema`, with the
 * stores closed and the schemas dropped after its tests.
 */
function useStores() {
  const stores: LinkStore[] = [];
  const schemas: string[] = [];
  afterAll(async () => {
    // Close first: DROP SCHEMA would otherwise wait on the stores' open connections' locks.
    for (const store of stores) await store.close().catch(() => {});
    // No store opened means no database to clean up, and a second error would bury the first.
    if (stores.length > 0) for (const schema of schemas) await dropSchema(schema);
  });
  return {
    async open(schema: string, connectionString?: string) {
      const store = await openStore(schema, connectionString);
      stores.push(store);
      return store;
    },
    newSchema() {
      const schema = freshSchema();
      schemas.push(schema);
      return schema;
    },
  };
}

describeLinkStoreContract('postgres', async () => {
  const schema = freshSchema();
  return { store: await openStore(schema), dispose: () => dropSchema(schema).then(() => {}) };
});

// As `server/main.ts` serves it: the cache (on the contract's clock) over faults as 503.
describeLinkStoreContract('postgres as the server serves it: link cache over faults as 503', async (clock) => {
  const schema = freshSchema();
  const store = withFaultsAsUnavailable(await openStore(schema), postgresFaultOf);
  return {
    store: withLinkCache(store, { maxEntries: 100, maxAgeMs: 60_000, now: clock }),
    dispose: () => dropSchema(schema).then(() => {}),
  };
});

describe('postgres across instances', () => {
  const { open, newSchema } = useStores();

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
    expect(versions.map((row) => row.version)).toEqual(STEPS);
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

describe('postgres storage and failures', () => {
  const { open, newSchema } = useStores();
  /** Runs `body` on a store in a schema of its own whose connections pass a relay it can cut. */
  const throughCutRelay = async (body: (store: LinkStore, relay: PostgresRelay, schema: string) => Promise<void>) => {
    const schema = newSchema();
    const relay = await startPostgresRelay(new URL(DATABASE_URL));
    try {
      await body(await open(schema, throughRelay(DATABASE_URL, relay)), relay, schema);
    } finally {
      await relay.cut();
    }
  };

  it('keeps times as timestamptz and the canonical code as a byte-ordered primary key', async () => {
    const schema = newSchema();
    const store = await open(schema);
    const made = link('한글', { createdAt: NOW + 123, expiresAt: NOW + 86_400_456 });
    await store.create(made, NOW);
    const columns = await adminQuery<{ column_name: string; data_type: string; collation_name: string | null }>(
      `SELECT column_name, data_type, collation_name FROM information_schema.columns
       WHERE table_schema = '${schema}' AND table_name = 'links' ORDER BY column_name`,
    );
    expect(columns).toEqual([
      // Only the SHA-256 of a link's claim token, never the token (schema 14).
      { column_name: 'claim_token_hash', data_type: 'text', collation_name: null },
      { column_name: 'clicks', data_type: 'bigint', collation_name: null },
      { column_name: 'code', data_type: 'text', collation_name: null },
      { column_name: 'code_key', data_type: 'text', collation_name: 'C' },
      { column_name: 'created_at', data_type: 'timestamp with time zone', collation_name: null },
      { column_name: 'disabled', data_type: 'boolean', collation_name: null },
      { column_name: 'expires_at', data_type: 'timestamp with time zone', collation_name: null },
      { column_name: 'forward_query', data_type: 'boolean', collation_name: null },
      { column_name: 'id', data_type: 'bigint', collation_name: null },
      { column_name: 'max_visits', data_type: 'bigint', collation_name: null },
      { column_name: 'original_url', data_type: 'text', collation_name: null },
      { column_name: 'owner_id', data_type: 'bigint', collation_name: null },
      { column_name: 'password_hash', data_type: 'text', collation_name: null },
      { column_name: 'redirect_rules', data_type: 'text', collation_name: null },
      { column_name: 'tags', data_type: 'text', collation_name: null },
      { column_name: 'title', data_type: 'text', collation_name: null },
      { column_name: 'updated_at', data_type: 'timestamp with time zone', collation_name: null },
      { column_name: 'valid_since', data_type: 'timestamp with time zone', collation_name: null },
    ]);
    const [row] = await adminQuery<{ expires: string }>(
      `SELECT to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires
       FROM ${pg.escapeIdentifier(schema)}.links`,
    );
    expect(row?.expires).toBe(new Date(made.expiresAt).toISOString());
    const primaryKey = await adminQuery<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = '${schema}' AND tablename = 'links' AND indexdef LIKE '%UNIQUE%'`,
    );
    expect(primaryKey.map((index) => index.indexdef)).toEqual([expect.stringMatching(/UNIQUE INDEX .* \(code_key\)/)]);
  });

  it('migrates a version-1 table (epoch-ms bigints) to timestamptz without changing a millisecond', async () => {
    const schema = newSchema();
    const q = pg.escapeIdentifier(schema);
    const old = link('Old', { createdAt: NOW + 7, expiresAt: NOW + 2_678_400_123 });
    await adminQuery(`CREATE SCHEMA ${q};
      CREATE TABLE ${q}.linklet_schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
      INSERT INTO ${q}.linklet_schema_version (version) VALUES (1);
      CREATE TABLE ${q}.links (code_key text PRIMARY KEY, code text NOT NULL, original_url text NOT NULL,
        created_at bigint NOT NULL, expires_at bigint NOT NULL);
      INSERT INTO ${q}.links VALUES ('old', 'Old', '${old.originalUrl}', ${old.createdAt}, ${old.expiresAt})`);
    const store = await open(schema);
    expect(await store.findByCodeKey('old')).toEqual(old);
    expect((await store.create(link('OLD'), NOW + 1)).created).toBe(false);
    const versions = await adminQuery<{ version: number }>(`SELECT version FROM ${q}.linklet_schema_version`);
    expect(versions.map((row) => row.version).sort((a, b) => a - b)).toEqual(STEPS);
  });

  it('reports a conflict, never an error, when SERIALIZABLE transactions collide on one code', async () => {
    const schema = newSchema();
    const serializable = withSettings({ default_transaction_isolation: 'serializable' });
    const [first, second] = [await open(schema, serializable), await open(schema, serializable)];
    await first.create(link('stale', { expiresAt: NOW - 1 }), NOW - 10_000);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? first : second).create(link('stale', { originalUrl: `https://example.com/${i}` }), NOW),
      ),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    for (const result of results) {
      if (!result.created) expect(result.holderExpiresAt).toBe(NOW + 86_400_000);
    }
  });

  it('retries a create whose connection is cut after the commit, and reports it created, once', async () => {
    await throughCutRelay(async (store, relay, schema) => {
      const made = link('lost-answer');
      const cut = relay.cutAfterAnswer('linklet_claim');
      const result = await store.create(made, NOW);
      await cut;
      expect(result).toEqual({ created: true, link: made });
      const rows = await adminQuery<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${pg.escapeIdentifier(schema)}.links WHERE code_key = 'lost-answer'`,
      );
      expect(rows[0]?.n).toBe(1);
      // The same link from another caller is still a conflict: only the lost answer is recovered.
      expect((await store.create(link('lost-answer', { originalUrl: 'https://other.example' }), NOW)).created).toBe(
        false,
      );
    });
  });

  it('settles a group of concurrent creates in one statement as one at a time would', async () => {
    const schema = newSchema();
    const store = await open(schema); // two claims in flight at most: later creates group
    await store.create(link('taken'), NOW);
    await store.create(link('old', { expiresAt: NOW - 1 }), NOW - 10_000);
    await store.create(link('edge', { expiresAt: NOW + 5 }), NOW - 10_000);
    const fresh = Array.from({ length: 20 }, (_, i) => link(`g-${i}`));
    const grouped = await createAsOneGroup(store, [
      ...fresh.map((made): [Link, number] => [made, NOW]),
      [link('taken', { originalUrl: 'https://other.example/' }), NOW],
      [link('old', { originalUrl: 'https://new.example/' }), NOW],
      [link('twice', { originalUrl: 'https://first.example/' }), NOW],
      [link('TWICE', { originalUrl: 'https://second.example/' }), NOW],
      // Expired by its own `now`, though not by the group's earliest: claimed all the same.
      [link('edge', { originalUrl: 'https://late.example/' }), NOW + 10],
    ]);
    expect(grouped.slice(0, 20)).toEqual(fresh.map((made) => ({ created: true, link: made })));
    expect(grouped.slice(20)).toEqual([
      { created: false, holderExpiresAt: NOW + 86_400_000 },
      { created: true, link: link('old', { originalUrl: 'https://new.example/' }) },
      { created: true, link: link('twice', { originalUrl: 'https://first.example/' }) },
      { created: false, holderExpiresAt: NOW + 86_400_000 },
      { created: true, link: link('edge', { originalUrl: 'https://late.example/' }) },
    ]);
    // One transaction wrote the group: its rows share the inserting transaction id.
    const groupKeys = [...fresh.map((made) => made.codeKey), 'old', 'twice'];
    const writers = await adminQuery<{ n: number }>(
      `SELECT count(DISTINCT xmin::text)::int AS n FROM ${pg.escapeIdentifier(schema)}.links
        WHERE code_key IN (${groupKeys.map((key) => `'${key}'`).join(', ')})`,
    );
    expect(writers[0]?.n).toBe(1);
    expect(await store.findByCodeKey('taken')).toEqual(link('taken'));
  });

  it('retries a group whose connection is cut after the commit, and reports each link created, once', async () => {
    await throughCutRelay(async (store, relay, schema) => {
      await store.create(link('held'), NOW);
      const cut = relay.cutAfterAnswer('linklet_claim_group');
      const made = Array.from({ length: 10 }, (_, i) => link(`cut-${i}`));
      const results = await createAsOneGroup(store, [
        ...made.map((one): [Link, number] => [one, NOW]),
        [link('held', { originalUrl: 'https://other.example/' }), NOW],
      ]);
      await cut;
      expect(results).toEqual([
        ...made.map((one) => ({ created: true, link: one })),
        { created: false, holderExpiresAt: NOW + 86_400_000 },
      ]);
      const rows = await adminQuery<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${pg.escapeIdentifier(schema)}.links WHERE code_key LIKE 'cut-%'`,
      );
      expect(rows[0]?.n).toBe(10);
    });
  });

  it('retries a read whose connection is cut', async () => {
    await throughCutRelay(async (store, relay) => {
      await store.create(link('read-me'), NOW);
      const cut = relay.cutAfterAnswer('linklet_find');
      expect((await store.findByCodeKey('read-me'))?.code).toBe('read-me');
      await cut;
    });
  });

  it('reads concurrent lookups together, and retries a grouped read whose connection is cut', async () => {
    await throughCutRelay(async (store, relay) => {
      const made = Array.from({ length: 12 }, (_, i) => link(`read-${i}`));
      for (const one of made) await store.create(one, NOW);
      const cut = relay.cutAfterAnswer('linklet_find_group');
      // A pool of 5 keeps three reads in flight; the rest (an unknown code and a repeat among
      // them) wait and go as one statement, whose answer the relay then cuts.
      const keys = [...made.map((one) => one.codeKey), 'unknown', 'read-0'];
      const found = await Promise.all(keys.map((key) => store.findByCodeKey(key)));
      await cut;
      expect(found).toEqual([...made, undefined, made[0]]);
    });
  });

  it('turns synchronous_commit=off into on for its connections, and keeps stronger settings', async () => {
    for (const [setting, expected] of [
      ['off', 'on'],
      ['local', 'local'],
      ['remote_apply', 'remote_apply'],
    ]) {
      const client = new pg.Client({ connectionString: withSettings({ synchronous_commit: setting as string }) });
      await client.connect();
      try {
        await ensureDurableCommits(client);
        expect((await client.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe(expected);
      } finally {
        await client.end();
      }
    }
  });

  it('tells a lost connection from an error PostgreSQL answered', () => {
    const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(isConnectionLost(withCode('terminating connection due to administrator command', '57P01'))).toBe(true);
    expect(isConnectionLost(withCode('connection failure', '08006'))).toBe(true);
    expect(isConnectionLost(withCode('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isConnectionLost(withCode('relation "links" does not exist', '42P01'))).toBe(false);
    expect(isConnectionLost('Connection terminated')).toBe(false);
  });
});
