import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';
import { describeLinkManagementContract } from './link-management-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-sqlite-management-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeLinkManagementContract('sqlite', async () => ({ store: createSqliteLinkStore(join(dir, `${++files}.db`)) }));
describeLinkManagementContract('sqlite in memory', async () => ({ store: createSqliteLinkStore(':memory:') }));
