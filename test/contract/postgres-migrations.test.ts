import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Link } from '../../core/store/link-store.js';
import { createPostgresLinkStore } from '../../server/stores/postgres/postgres-link-store.js';
import { migrationLockKey } from '../../server/stores/postgres/postgres-migrate.js';
import { postgresMigrations } from '../../server/stores/postgres/postgres-migrations.js';
import type { OnMigrated } from '../../server/stores/schema-version.js';
import type { ServerLinkStore } from '../../server/stores/server-link-store.js';
import { C, clickDaysKept, D, expectOldRowsRead, FAR, HASH, KEEP } from './legacy-rows.js';
import { makeOldPostgres, OLD_POSTGRES_VERSIONS, releasedStep } from './legacy-schemas.js';
import { seedPostgresVisits } from './legacy-visits.js';

/** Today's schema and every step to it: the tests follow the list, so a new step needs no edit here. */
const STEPS = postgresMigrations('').map((_, index) => index + 1);
const TODAY = STEPS.length;

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const freshSchema = () => `linklet_test_${randomUUID().replaceAll('-', '')}`;

const ts = (ms: number) => `(timestamptz 'epoch' + ${ms} * interval '1 millisecond')`;
const day = (n: number) => `(date '1970-01-01' + ${n})`;

/** A connection of the test's own (setup, checks, locks), ended after `body`. */
async function withClient<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}
const query = <R extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
  withClient(async (client) => (await client.query<R>(sql, values)).rows);

const schemas: string[] = [];
const stores: ServerLinkStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close().catch(() => {});
  for (const schema of schemas) await query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
});
const newSchema = () => {
  const schema = freshSchema();
  schemas.push(schema);
  return schema;
};
const open = async (schema: string, onMigrated?: OnMigrated) => {
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 2, onMigrated });
  stores.push(store);
  return store;
};

/** The schema each feature came with: a schema is seeded and checked for what its version can hold. */
const SINCE = { timestamptz: 2, owners: 3, clicks: 4, linkIds: 5, visits: 6, passwords: 7, labels: 8, packedVisits: 9 };

/** Rows an earlier release could have written at `version` (the search path is the schema). */
async function seed(client: pg.ClientBase, version: number) {
  const at = (ms: number) => (version >= SINCE.timestamptz ? ts(ms) : ms);
  // From schema 3 on, every release wrote updated_at (NOT NULL, no default).
  const [updated, keep, retaken] =
    version >= SINCE.owners ? [', updated_at', `, ${at(C)}`, `, ${at(C + 1)}`] : ['', '', ''];
  await client.query(`INSERT INTO links (code_key, code, original_url, created_at, expires_at${updated}) VALUES
    ('keep', 'Keep', 'https://example.com/keep', ${at(C)}, ${at(FAR)}${keep}),
    ('retaken', 'retaken', 'https://example.com/retaken', ${at(C + 1)}, ${at(FAR)}${retaken})`);
  if (version >= SINCE.owners) {
    await client.query(`INSERT INTO owners (name, created_at) VALUES ('alice', ${ts(C)});
      INSERT INTO api_keys (owner_id, key_hash, created_at) VALUES (1, 'hash-of-alice', ${ts(C)});
      UPDATE links SET owner_id = 1, disabled = true, updated_at = ${ts(C + 5)} WHERE code_key = 'keep'`);
  }
  if (version >= SINCE.clicks) await seedClicks(client, version);
  if (version >= SINCE.visits) {
    const { rows } = await client.query<{ id: string }>("SELECT id FROM links WHERE code_key = 'keep'");
    await seedPostgresVisits(client, Number(rows[0]?.id), version >= SINCE.packedVisits);
  }
  if (version >= SINCE.passwords)
    await client.query("UPDATE links SET password_hash = $1 WHERE code_key = 'keep'", [HASH]);
  if (version >= SINCE.labels)
    await client.query("UPDATE links SET title = 'Keep this', tags = 'work news' WHERE code_key = 'keep'");
}

/** 'keep' clicked 3 times one day and 2 the next, 'retaken' once. */
async function seedClicks(client: pg.ClientBase, version: number) {
  await client.query(`UPDATE links SET clicks = 5 WHERE code_key = 'keep';
    UPDATE links SET clicks = 1 WHERE code_key = 'retaken'`);
  if (version >= SINCE.linkIds) {
    await client.query(`INSERT INTO link_click_days (link_id, day, clicks)
      SELECT l.id, d.day, d.clicks FROM links l
      JOIN (VALUES ('keep', ${day(D)}, 3), ('keep', ${day(D + 1)}, 2), ('retaken', ${day(D)}, 1))
        AS d (code_key, day, clicks) USING (code_key)`);
    return;
  }
  // 'retaken' was taken over by an import with its previous holder's creation time: its total
  // restarted at 1, but the 7 clicks of the day before stayed under (code, created_at).
  await client.query(`INSERT INTO link_click_days VALUES ('keep', ${ts(C)}, ${day(D)}, 3),
    ('keep', ${ts(C)}, ${day(D + 1)}, 2), ('retaken', ${ts(C + 1)}, ${day(D)}, 7), ('gone', ${ts(C)}, ${day(D)}, 9)`);
}

/** A schema's tables, columns, indexes, triggers and functions, its own name taken out so schemas compare. */
async function structureOf(schema: string) {
  const named = (text: string) => text.replaceAll(pg.escapeIdentifier(schema), 'S').replaceAll(schema, 'S');
  const [columns, indexes, triggers, functions] = await Promise.all([
    query(
      `SELECT table_name, column_name, data_type, is_nullable, collation_name, column_default, is_identity
       FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, column_name`,
      [schema],
    ),
    query<{ indexdef: string }>('SELECT indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname', [schema]),
    query<{ definition: string }>(
      `SELECT pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND NOT t.tgisinternal ORDER BY t.tgname`,
      [schema],
    ),
    // By name: pg_proc's own order is where each row landed, which a step that drops and makes a
    // function again (schema 9) changes.
    query<{ proname: string }>(
      `SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = $1 ORDER BY p.proname`,
      [schema],
    ),
  ]);
  return {
    columns,
    indexes: indexes.map((row) => named(row.indexdef)),
    triggers: triggers.map((row) => named(row.definition)),
    functions: functions.map((row) => row.proname),
  };
}
const versionsOf = async (schema: string) =>
  (
    await query<{ version: number }>(
      `SELECT version FROM ${pg.escapeIdentifier(schema)}.linklet_schema_version ORDER BY version`,
    )
  ).map((row) => row.version);

describe('postgres migrations', () => {
  let fresh: Awaited<ReturnType<typeof structureOf>> | undefined;
  const freshStructure = async () => {
    if (fresh) return fresh;
    const schema = newSchema();
    await (await open(schema)).close();
    fresh = await structureOf(schema);
    return fresh;
  };

  for (const version of OLD_POSTGRES_VERSIONS) {
    for (const unversioned of [false, true]) {
      it(`brings a schema-${version} database${unversioned ? ' with no version table (a partial pg_dump)' : ''} to today's shape in place, keeping every row`, async () => {
        const schema = newSchema();
        await withClient(async (client) => {
          await makeOldPostgres(client, schema, version, { unversioned });
          await seed(client, version);
        });

        const steps: number[] = [];
        const store = await open(schema, (step) => steps.push(step.version));
        expect(steps).toEqual(STEPS.filter((step) => step > version));
        const has = (feature: keyof typeof SINCE) => version >= SINCE[feature];
        await expectOldRowsRead(store, has);
        expect((await store.create({ ...KEEP, code: 'new', codeKey: 'new' }, C)).created).toBe(true);
        await store.close();

        expect(await structureOf(schema)).toEqual(await freshStructure());
        expect(await versionsOf(schema)).toEqual(STEPS);
        const q = pg.escapeIdentifier(schema);
        const ids = await query<{ id: string }>(`SELECT id FROM ${q}.links`);
        expect(new Set(ids.map((row) => row.id)).size).toBe(3);
        expect(await query(`SELECT * FROM ${q}.link_click_days`)).toHaveLength(clickDaysKept(has));
      });
    }
  }

  it('refuses a database a newer Linklet wrote, naming both schemas, and changes nothing', async () => {
    const schema = newSchema();
    const made = await open(schema);
    await made.create(
      { code: 'x', codeKey: 'x', originalUrl: 'https://example.com/', createdAt: C, expiresAt: FAR },
      C,
    );
    await made.close();
    const q = pg.escapeIdentifier(schema);
    await query(`INSERT INTO ${q}.linklet_schema_version (version) VALUES (${TODAY + 1})`);
    const snapshot = async () => ({
      structure: await structureOf(schema),
      versions: await query(`SELECT * FROM ${q}.linklet_schema_version ORDER BY version`),
      links: await query(`SELECT * FROM ${q}.links`),
    });
    const before = await snapshot();

    await expect(open(schema)).rejects.toThrow(
      `This database was written by a newer Linklet (schema ${TODAY + 1}); this server knows schema ${TODAY}. Update the server`,
    );
    expect(await snapshot()).toEqual(before);
  });

  for (const version of [0, 1]) {
    it(`migrates ${version === 0 ? 'a new schema' : 'a schema-1 database'} once when three instances start at the same moment`, async () => {
      const schema = newSchema();
      if (version === 1) await withClient((client) => makeOldPostgres(client, schema, 1));
      const steps: number[] = [];
      const record: OnMigrated = (step) => steps.push(step.version);
      const started = await Promise.all([open(schema, record), open(schema, record), open(schema, record)]);
      expect(steps).toEqual(STEPS.filter((step) => step > version));
      expect(await versionsOf(schema)).toEqual(STEPS);
      const made = { code: 'one', codeKey: 'one', originalUrl: 'https://example.com/', createdAt: C, expiresAt: FAR };
      await started[0]?.create(made, C);
      for (const store of started) expect(await store.findByCodeKey('one')).toEqual(made);
    });
  }

  it('takes turns with an older release migrating the same schema (a rolling update): each step runs once', async () => {
    const schema = newSchema();
    await withClient(async (older) => {
      await makeOldPostgres(older, schema, 3);
      // Release e616a67 mid-migration: its one transaction holds the fixed key it migrated under.
      await older.query('BEGIN');
      await older.query('SELECT pg_advisory_xact_lock($1)', [0x4c4e4b4c]);
      await older.query(releasedStep('postgres', 4));
      await older.query('INSERT INTO linklet_schema_version (version) VALUES (4)');
      const steps: number[] = [];
      const opening = open(schema, (step) => steps.push(step.version));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await older.query('COMMIT');
      await opening;
      expect(steps).toEqual(STEPS.filter((step) => step > 4));
    });
    expect(await versionsOf(schema)).toEqual(STEPS);
  });

  it("waits only for its own schema's migrations: another schema's lock holds nobody else up", async () => {
    const [busy, free] = [newSchema(), newSchema()];
    await withClient(async (holder) => {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [migrationLockKey(busy)]);
      let busyOpened = false;
      const waiting = open(busy).then((store) => {
        busyOpened = true;
        return store;
      });
      await open(free); // not held up by the lock of the other schema
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(busyOpened).toBe(false);
      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [migrationLockKey(busy)]);
      await waiting;
      expect(busyOpened).toBe(true);
    });
  });

  it("drops a link's daily clicks from the table when its code is retaken or it is deleted", async () => {
    const schema = newSchema();
    const store = await open(schema);
    const link = (code: string, expiresAt: number): Link => ({
      code,
      codeKey: code,
      originalUrl: 'https://example.com/',
      createdAt: C,
      expiresAt,
    });
    await store.create(link('short', C + 1000), C);
    await store.create(link('doomed', FAR), C);
    await store.addClicks({ day: D, codeKeys: ['short', 'doomed'], counts: [4, 6] });
    const days = () => query(`SELECT * FROM ${pg.escapeIdentifier(schema)}.link_click_days`);
    expect(await days()).toHaveLength(2);
    expect((await store.create(link('short', FAR), C + 2000)).created).toBe(true);
    expect(await store.deleteLink('doomed', { all: true }, C + 3000)).toBe(true);
    expect(await days()).toEqual([]);
  });
});
