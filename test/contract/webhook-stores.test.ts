import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createMemoryWebhookStore } from '../../core/webhooks/memory-webhook-store.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';
import { describeWebhookContract } from './webhook-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-webhooks-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeWebhookContract('memory', async () => ({ store: createMemoryWebhookStore() }));
describeWebhookContract('sqlite', async () => {
  const store = createSqliteLinkStore(join(dir, `${++files}.db`));
  return { store, close: () => store.close() };
});
