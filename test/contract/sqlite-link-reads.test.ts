import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-turn-reads-'));
let files = 0;
const freshPath = () => join(dir, `store-${++files}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const linkOf = (code: string, originalUrl = 'https://example.com/') => ({
  code,
  codeKey: code,
  originalUrl,
  createdAt: 1,
  expiresAt: 2e12,
});
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

// Redirect reads share one read transaction per turn of the event loop: what is acknowledged,
// here or by another process through the change feed, must never be read as it was.
describe('sqlite redirect reads, one snapshot per turn', () => {
  it('reads a link as soon as its create is acknowledged, whatever was read before', async () => {
    const store = createSqliteLinkStore(freshPath());
    try {
      expect(store.lookup?.('fresh')).toBeUndefined(); // a snapshot is taken here
      await store.create(linkOf('fresh'), 1);
      expect(store.lookup?.('fresh')).toMatchObject({ code: 'fresh' });
    } finally {
      await store.close();
    }
  });

  it('reads a change made here at once, and another connection’s by the next turn', async () => {
    const path = freshPath();
    const store = createSqliteLinkStore(path);
    const other = new Database(path);
    try {
      await store.create(linkOf('moved', 'https://example.com/old'), 1);
      expect(store.lookup?.('moved')).toMatchObject({ originalUrl: 'https://example.com/old' });
      await store.updateLink('moved', { all: true }, { originalUrl: 'https://example.com/new' }, 2);
      expect(store.lookup?.('moved')).toMatchObject({ originalUrl: 'https://example.com/new' });

      store.lookup?.('moved');
      other.prepare("UPDATE links SET original_url = 'https://example.com/elsewhere' WHERE code_key = 'moved'").run();
      await nextTurn();
      expect(store.lookup?.('moved')).toMatchObject({ originalUrl: 'https://example.com/elsewhere' });
    } finally {
      other.close();
      await store.close();
    }
  });

  it('is told of another process’s change only once its snapshot is let go', async () => {
    const path = freshPath();
    const store = createSqliteLinkStore(path, { changePollMs: 5 });
    const other = createSqliteLinkStore(path);
    try {
      await store.create(linkOf('told', 'https://example.com/old'), 1);
      const seen: Array<string | undefined> = [];
      const changed = new Promise<void>((resolve) => {
        store.changes?.subscribe((event) => {
          if (event.kind !== 'changed') return;
          const found = store.lookup?.('told');
          seen.push(found && !(found instanceof Promise) ? found.originalUrl : undefined);
          resolve();
        });
      });
      const keepReading = setInterval(() => store.lookup?.('told'), 1);
      await other.updateLink('told', { all: true }, { originalUrl: 'https://example.com/new' }, 2);
      await changed;
      clearInterval(keepReading);
      expect(seen).toEqual(['https://example.com/new']);
    } finally {
      await other.close();
      await store.close();
    }
  });
});
