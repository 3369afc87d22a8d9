import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../core/clicks.js';
import type { ManagedLinkStore } from '../../core/link-management-store.js';
import { createPostgresLinkStore } from '../../server/stores/postgres/postgres-link-store.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';
import { DAY, json, makeHandler, START } from '../api/make-handler.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN = 'admin-key-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'linklet-click-leak-'));
const schema = `linklet_test_${randomUUID().replaceAll('-', '')}`;
const opened: ManagedLinkStore[] = [];

afterAll(async () => {
  for (const store of opened) await store.close();
  rmSync(dir, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
  await client.end();
});

const STORES: Array<[string, () => Promise<ManagedLinkStore>]> = [
  ['sqlite', async () => createSqliteLinkStore(join(dir, 'links.db'))],
  ['postgres', () => createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 2 })],
];

/**
 * The reported attack, through the API: Alice's link expires; its 410 page gives the expiry to the
 * millisecond, so her link's creation time is one of a few guesses; Bob imports a link with her
 * code and that creation time, then asks for its clicks.
 */
describe("another owner's click history", () => {
  for (const [name, openStore] of STORES) {
    it(`stays hers when Bob imports her expired code with her creation time (${name})`, async () => {
      const store = await openStore();
      opened.push(store);
      const app = makeHandler({ apiKey: ADMIN, store });
      const keyOf = async (owner: string) =>
        (await json(await app.post('/api/v1/keys', { name: owner }, { 'X-API-Key': ADMIN }))).data.key as string;
      const [alice, bob] = [await keyOf('alice'), await keyOf('bob')];
      const made = await app.post(
        '/api/v1/shorten',
        { original_url: 'https://alice.example/launch', custom_code: 'launch', expire_duration: '24h' },
        { 'X-API-Key': alice },
      );
      expect(made.status).toBe(201);
      await store.addClicks({ day: dayOf(START), codeKeys: ['launch'], counts: [12] });
      const hers = await json(await app.fetch('/api/v1/links/launch', { headers: { 'X-API-Key': alice } }));
      expect(hers.data.clicks).toBe(12);

      app.clock.advance(2 * DAY);
      expect((await app.fetch('/launch')).status).toBe(410);
      const createdAt = new Date(START).toISOString(); // the expiry the 410 page shows, less 24h
      const csv = `code,original_url,created_at,expiration_date\nlaunch,https://bob.example/,${createdAt},${new Date(START + 30 * DAY).toISOString()}\n`;
      const imported = await app.fetch('/api/v1/links/import', {
        method: 'POST',
        headers: { 'X-API-Key': bob, 'Content-Type': 'text/csv' },
        body: csv,
      });
      expect((await json(imported)).data.created).toBe(1);

      const seen = await json(await app.fetch('/api/v1/links/launch', { headers: { 'X-API-Key': bob } }));
      expect(seen.data.created_at).toBe(createdAt);
      expect(seen.data.clicks).toBe(0);
      expect(seen.data.clicks_by_day.filter((day: { clicks: number }) => day.clicks > 0)).toEqual([]);
    });
  }
});
