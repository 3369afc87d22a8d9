import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';
import { withLinkCache } from '../../server/stores/cache/link-cache.js';
import type { LinkChangeEvent } from '../../server/stores/change-feed.js';
import { postgresFaultOf } from '../../server/stores/postgres/postgres-errors.js';
import { createPostgresLinkStore } from '../../server/stores/postgres/postgres-link-store.js';
import { withFaultsAsUnavailable } from '../../server/stores/store-faults.js';
import { describeBulkEditsContract } from './bulk-edits-contract.js';
import { withEncodedVisits } from './encoded-visits-store.js';
import { describeLinkClaimContract } from './link-claim-contract.js';
import { describeLinkManagementContract } from './link-management-contract.js';
import { describeLinkOptionsContract } from './link-options-contract.js';
import { describeLinkPasswordContract, describeManagedLinkPasswordContract } from './link-password-contract.js';
import { describeLinkRulesContract } from './link-rules-contract.js';
import { link, NOW } from './link-store-contract.js';
import { describeRecentLinksContract } from './recent-links-contract.js';
import { describeVisitContract } from './visit-contract.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const freshSchema = () => `linklet_test_${randomUUID().replaceAll('-', '')}`;

async function adminQuery(sql: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}
const dropSchema = (schema: string) => adminQuery(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);

describeLinkManagementContract('postgres', async () => {
  const schema = freshSchema();
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
  return { store, dispose: () => dropSchema(schema).then(() => {}) };
});
describeLinkClaimContract('postgres', async () => {
  const schema = freshSchema();
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
  return { store, dispose: () => dropSchema(schema).then(() => {}) };
});
describeLinkManagementContract('postgres as the server serves it: link cache over faults as 503', async (clock) => {
  const schema = freshSchema();
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
  return {
    store: withLinkCache(withFaultsAsUnavailable(store, postgresFaultOf), {
      maxEntries: 100,
      maxAgeMs: 60_000,
      now: clock,
    }),
    dispose: () => dropSchema(schema).then(() => {}),
  };
});
for (const describeContract of [describeLinkPasswordContract, describeManagedLinkPasswordContract]) {
  describeContract('postgres', async () => {
    const schema = freshSchema();
    const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 2 });
    return { store, dispose: () => dropSchema(schema).then(() => {}) };
  });
}

describeVisitContract('postgres', async () => {
  const schema = freshSchema();
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4, foldEveryMs: 0 });
  return { store, dispose: () => dropSchema(schema).then(() => {}) };
});

describeVisitContract('postgres, visits encoded as the click counter hands them', async () => {
  const schema = freshSchema();
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4, foldEveryMs: 0 });
  return { store: withEncodedVisits(store), dispose: () => dropSchema(schema).then(() => {}) };
});

describeBulkEditsContract('postgres', async () => {
  const schema = freshSchema();
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
  return { store, dispose: () => dropSchema(schema).then(() => {}) };
});
describeBulkEditsContract('postgres as the server serves it: link cache over faults as 503', async (clock) => {
  const schema = freshSchema();
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
  return {
    store: withLinkCache(withFaultsAsUnavailable(store, postgresFaultOf), {
      maxEntries: 100,
      maxAgeMs: 60_000,
      now: clock,
    }),
    dispose: () => dropSchema(schema).then(() => {}),
  };
});
describeLinkOptionsContract('postgres', async () => {
  const schema = freshSchema();
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
  return { store, dispose: () => dropSchema(schema).then(() => {}) };
});

describeRecentLinksContract('postgres', async () => {
  const schema = freshSchema();
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
  return { store, dispose: () => dropSchema(schema).then(() => {}) };
});
// As the server warms its cache from it: through the wrapper that turns faults into 503.
describeRecentLinksContract('postgres, faults as 503', async () => {
  const schema = freshSchema();
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
  return { store: withFaultsAsUnavailable(store, postgresFaultOf), dispose: () => dropSchema(schema).then(() => {}) };
});

/** Collects a feed's events; `next` resolves with the first one matching. */
function recordEvents() {
  const events: LinkChangeEvent[] = [];
  return {
    events,
    listener: (event: LinkChangeEvent) => events.push(event),
    async next(match: (event: LinkChangeEvent) => boolean, withinMs = 3000) {
      for (let waited = 0; waited < withinMs; waited += 20) {
        const found = events.find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no matching event within ${withinMs} ms; got ${JSON.stringify(events)}`);
    },
  };
}

describe('postgres change feed', () => {
  it("tells one instance of another's patch and delete, and says lost when its connection is cut", async () => {
    const schema = freshSchema();
    const open = () => createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 2 });
    const [writer, watcher] = [await open(), await open()];
    const recorded = recordEvents();
    const applicationName = `linklet-listener-${process.pid}`;
    try {
      const stop = watcher.changes?.subscribe(recorded.listener);
      await recorded.next((event) => event.kind === 'restored');
      await writer.create(link('watched'), NOW);
      await writer.updateLink('watched', { all: true }, { disabled: true }, NOW + 1);
      await recorded.next((event) => event.kind === 'changed' && event.codeKeys.includes('watched'));
      recorded.events.length = 0;
      await writer.deleteLink('watched', { all: true }, NOW + 2);
      await recorded.next((event) => event.kind === 'changed' && event.codeKeys.includes('watched'));

      recorded.events.length = 0;
      await adminQuery('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
        applicationName,
      ]);
      await recorded.next((event) => event.kind === 'lost');
      await recorded.next((event) => event.kind === 'restored');
      stop?.();
    } finally {
      await writer.close();
      await watcher.close();
      await dropSchema(schema);
    }
  });
});

describeLinkRulesContract('postgres', async () => {
  const schema = freshSchema();
  const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 4 });
  return { store, dispose: () => dropSchema(schema).then(() => {}) };
});
