import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, it } from 'vitest';
import type { LinkChangeEvent } from '../../server/stores/change-feed.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';
import { withEncodedVisits } from './encoded-visits-store.js';
import { describeLinkManagementContract } from './link-management-contract.js';
import { describeLinkOptionsContract } from './link-options-contract.js';
import { describeLinkPasswordContract, describeManagedLinkPasswordContract } from './link-password-contract.js';
import { link, NOW } from './link-store-contract.js';
import { describeRecentLinksContract } from './recent-links-contract.js';
import { describeVisitContract } from './visit-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-sqlite-management-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeLinkManagementContract('sqlite', async () => ({ store: createSqliteLinkStore(join(dir, `${++files}.db`)) }));
describeLinkManagementContract('sqlite in memory', async () => ({ store: createSqliteLinkStore(':memory:') }));
describeLinkPasswordContract('sqlite', async () => ({ store: createSqliteLinkStore(join(dir, `${++files}.db`)) }));
describeManagedLinkPasswordContract('sqlite', async () => ({
  store: createSqliteLinkStore(join(dir, `${++files}.db`)),
}));
describeLinkOptionsContract('sqlite', async () => ({ store: createSqliteLinkStore(join(dir, `${++files}.db`)) }));
describeRecentLinksContract('sqlite', async () => ({ store: createSqliteLinkStore(join(dir, `${++files}.db`)) }));
describeRecentLinksContract('sqlite in memory', async () => ({ store: createSqliteLinkStore(':memory:') }));

describe('sqlite change feed', () => {
  it("tells one connection of another's patch and delete, and says lost when the log was pruned past it", async () => {
    const path = join(dir, 'feed.db');
    const writer = createSqliteLinkStore(path);
    const watcher = createSqliteLinkStore(path, { changePollMs: 20 });
    const events: LinkChangeEvent[] = [];
    const stop = watcher.changes?.subscribe((event) => events.push(event));
    const next = async (match: (event: LinkChangeEvent) => boolean) => {
      for (let waited = 0; waited < 3000; waited += 20) {
        if (events.some(match)) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no matching event; got ${JSON.stringify(events)}`);
    };
    await writer.create(link('watched'), NOW);
    await writer.updateLink('watched', { all: true }, { originalUrl: 'https://new.example/' }, NOW + 1);
    await next((event) => event.kind === 'changed' && event.codeKeys.join() === 'watched');
    events.length = 0;
    await writer.deleteLink('watched', { all: true }, NOW + 2);
    await next((event) => event.kind === 'changed' && event.codeKeys.join() === 'watched');

    events.length = 0;
    // Changes a whole keep-time later prune the earlier ones before the watcher read them.
    const raw = new Database(path);
    raw.exec("INSERT INTO link_changes (code_key, changed_at) VALUES ('a', 0), ('b', 0)");
    raw.exec('DELETE FROM link_changes WHERE changed_at = 0');
    raw.close();
    await next((event) => event.kind === 'lost');
    stop?.();
    await writer.close();
    await watcher.close();
  });
});

describeVisitContract('sqlite', async () => ({ store: createSqliteLinkStore(join(dir, `${++files}.db`)) }));
describeVisitContract('sqlite in memory', async () => ({ store: createSqliteLinkStore(':memory:') }));
describeVisitContract('sqlite, visits encoded as the click counter hands them', async () => ({
  store: withEncodedVisits(createSqliteLinkStore(':memory:')),
}));
