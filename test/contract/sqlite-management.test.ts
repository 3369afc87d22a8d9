import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, assert, describe, it } from 'vitest';
import { withLinkCache } from '../../server/stores/cache/link-cache.js';
import type { LinkChangeEvent } from '../../server/stores/change-feed.js';
import { CHANGE_LOG_KEEP_MS } from '../../server/stores/sqlite/sqlite-change-feed.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';
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
describeBulkEditsContract('sqlite', async () => ({ store: createSqliteLinkStore(join(dir, `${++files}.db`)) }));
describeBulkEditsContract('sqlite in memory', async () => ({ store: createSqliteLinkStore(':memory:') }));
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
    // Having read up to the newest change, it tells every change again from that same poll on.
    await next((event) => event.kind === 'restored');
    assert.deepEqual(
      events.map((event) => event.kind),
      ['lost', 'restored'],
    );
    stop?.();
    await writer.close();
    await watcher.close();
  });

  it('lets the link cache in front of it cache again after the log was pruned past it', async () => {
    const path = join(dir, 'cache-after-lost.db');
    const store = createSqliteLinkStore(path, { changePollMs: 20 });
    const cached = withLinkCache(store, { maxEntries: 100, maxAgeMs: 60_000 });
    await store.create(link('kept', { expiresAt: Date.now() + 86_400_000 }), Date.now());
    await cached.lookup('kept');
    assert.equal(cached.size, 1);
    const raw = new Database(path);
    raw.exec("INSERT INTO link_changes (code_key, changed_at) VALUES ('a', 0)");
    raw.exec('DELETE FROM link_changes WHERE changed_at = 0');
    raw.close();
    // The feed's next poll drops everything (anything may have changed) and then caches again.
    for (let waited = 0; cached.size !== 0 && waited < 3000; waited += 20) await sleep(20);
    assert.equal(cached.size, 0);
    await sleep(100);
    await cached.lookup('kept');
    assert.equal(cached.size, 1, 'a link read after the feed caught up is cached again');
    await cached.close();
  });

  it('keeps a retaken code in the log, and creates alone prune what is older than a minute', async () => {
    const path = join(dir, 'pruned.db');
    const store = createSqliteLinkStore(path);
    const raw = new Database(path);
    raw.exec("INSERT INTO link_changes (code_key, changed_at) VALUES ('long-gone', 0), ('long-gone-too', 0)");
    const logged = () => raw.prepare('SELECT code_key FROM link_changes ORDER BY seq').pluck().all();
    // The store's first batch prunes the day-old entries.
    await store.create(link('once', { expiresAt: NOW + 1000 }), NOW);
    assert.deepEqual(logged(), []);
    // A create that retakes an expired code updates its row: the trigger logs it.
    const retaken = await store.create(
      link('once', { createdAt: NOW + 2000, expiresAt: NOW + 86_400_000 }),
      NOW + 2000,
    );
    assert.equal(retaken.created, true);
    assert.deepEqual(logged(), ['once']);
    // Another create within the minute prunes nothing: the retake stays for the other processes to read.
    raw.exec("INSERT INTO link_changes (code_key, changed_at) VALUES ('stale', 0)");
    await store.create(link('other'), NOW + 3000);
    assert.deepEqual(logged(), ['once', 'stale']);
    // A minute of batches on, a create prunes again (by the log's own clock: the retake is recent).
    await store.create(link('later'), NOW + CHANGE_LOG_KEEP_MS);
    assert.deepEqual(logged(), ['once']);
    raw.close();
    await store.close();
  });
});

describeVisitContract('sqlite', async () => ({ store: createSqliteLinkStore(join(dir, `${++files}.db`)) }));
describeVisitContract('sqlite in memory', async () => ({ store: createSqliteLinkStore(':memory:') }));
describeVisitContract('sqlite, visits encoded as the click counter hands them', async () => ({
  store: withEncodedVisits(createSqliteLinkStore(':memory:')),
}));

describeLinkRulesContract('sqlite', async () => ({ store: createSqliteLinkStore(join(dir, `${++files}.db`)) }));
describeLinkClaimContract('sqlite', async () => ({ store: createSqliteLinkStore(join(dir, `${++files}.db`)) }));
