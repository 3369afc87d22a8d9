import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';
import { describeClickHistoryLeak } from './click-history-leak.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-click-leak-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeClickHistoryLeak('memory', async () => createMemoryLinkStore());
describeClickHistoryLeak('sqlite', async () => createSqliteLinkStore(join(dir, 'links.db')));
