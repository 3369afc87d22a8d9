import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { assert, describe, it } from 'vitest';
import { postgresFaultOf } from '../../server/stores/postgres/postgres-errors.js';
import { createPostgresLinkStore } from '../../server/stores/postgres/postgres-link-store.js';
import { withFaultsAsUnavailable } from '../../server/stores/store-faults.js';
import { describeWebhookContract } from './webhook-contract.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function dropSchema(schema: string) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
  await client.end();
}
const postgres = async () => {
  const schema = `linklet_test_${randomUUID().replaceAll('-', '')}`;
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
  return {
    store,
    close: async () => {
      await store.close();
      await dropSchema(schema);
    },
  };
};

describeWebhookContract('postgres', postgres);
describeWebhookContract('postgres as the server serves it (faults as 503)', async () => {
  const made = await postgres();
  return { store: withFaultsAsUnavailable(made.store, postgresFaultOf), close: made.close };
});

describe('webhook queue claimed by two PostgreSQL connections at once', () => {
  it('hands each delivery to one of them', async () => {
    const schema = `linklet_test_${randomUUID().replaceAll('-', '')}`;
    const one = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
    const two = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
    try {
      const webhook = await one.createWebhook({
        ownerId: 1,
        url: 'https://hooks.example/',
        events: ['link.clicked'],
        secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0',
        createdAt: 1,
      });
      const ids = Array.from({ length: 200 }, (_, i) => `msg_race${i}`);
      await one.enqueueDeliveries(
        ids.map((id) => ({ id, webhookId: webhook.id, type: 'link.clicked', body: '{}', createdAt: 1 })),
      );
      const claimed: string[] = [];
      const drain = async (store: typeof one) => {
        for (;;) {
          const batch = await store.claimDeliveries(10, 7, 60_000);
          if (batch.length === 0) return;
          claimed.push(...batch.map((d) => d.id));
        }
      };
      await Promise.all([drain(one), drain(two), drain(one), drain(two)]);
      assert.equal(claimed.length, ids.length);
      assert.deepEqual([...new Set(claimed)].sort(), [...ids].sort());
    } finally {
      await one.close();
      await two.close();
      await dropSchema(schema);
    }
  });
});
