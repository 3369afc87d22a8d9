import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withLinkCache } from '../../server/stores/cache/link-cache.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';
import { link } from './link-store-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-renew-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const DAY = 86_400_000;

describe('a renewal seen by another process on the same SQLite file', () => {
  it('resolves a renewed expired link at once, and a renewed cached link with its new expiry', async () => {
    const path = join(dir, 'shared.db');
    const now = Date.now();
    const writer = createSqliteLinkStore(path);
    const other = withLinkCache(createSqliteLinkStore(path, { changePollMs: 20 }), {
      maxEntries: 100,
      maxAgeMs: 60_000,
    });
    try {
      await writer.create(link('gone', { createdAt: now - 2 * DAY, expiresAt: now - DAY }), now - 2 * DAY);
      await writer.create(link('kept', { createdAt: now, expiresAt: now + DAY }), now);
      expect((await other.lookup('gone'))?.expiresAt).toBe(now - DAY); // expired: not cached
      await other.lookup('kept'); // cached now
      expect(other.size).toBe(1);
      await writer.updateLink('gone', { all: true }, { expiresAt: now + 7 * DAY }, Date.now());
      await writer.updateLink('kept', { all: true }, { expiresAt: now + 30 * DAY }, Date.now());
      // Redirect reads share one snapshot per event-loop turn: another process's commit is seen
      // from the next turn (two stores in one test process share a turn, two servers never do).
      await new Promise((resolve) => setImmediate(resolve));
      expect((await other.lookup('gone'))?.expiresAt).toBe(now + 7 * DAY);
      await expect.poll(async () => (await other.lookup('kept'))?.expiresAt).toBe(now + 30 * DAY);
    } finally {
      await other.close();
      await writer.close();
    }
  });
});
