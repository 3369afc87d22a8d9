import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Link } from '../../core/store/link-store.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-owned-indexes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NOW = Date.UTC(2026, 10, 27);

const link = (code: string, ownerId?: number): Link => ({
  code,
  codeKey: code,
  originalUrl: `https://example.com/${code}`,
  createdAt: NOW,
  expiresAt: NOW + 86_400_000,
  ...(ownerId === undefined ? {} : { ownerId }),
});

/** How many entries each index of `links` holds (SQLite's `dbstat`: cells of its leaf pages). */
function entriesOf(path: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT name, sum(ncell) AS entries FROM dbstat
         WHERE name IN ('links_by_owner', 'links_by_change', 'links_by_age') AND pagetype = 'leaf' GROUP BY name`,
      )
      .all() as Array<{ name: string; entries: number }>;
    return Object.fromEntries(rows.map(({ name, entries }) => [name, entries]));
  } finally {
    db.close();
  }
}

/** What SQLite's planner does with a statement: the detail of each step. */
function planOf(path: string, sql: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const steps = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ ownerId: 1, at: NOW, key: '' }) as Array<{
      detail: string;
    }>;
    return steps.map((step) => step.detail).join('; ');
  } finally {
    db.close();
  }
}

describe("the SQLite owners' indexes (schema 11)", () => {
  it('hold only links that have an owner: a link made without an owner costs them nothing', async () => {
    const path = join(dir, 'entries.db');
    const store = createSqliteLinkStore(path);
    for (let i = 0; i < 40; i++) await store.create(link(`anon${i}`), NOW);
    for (const code of ['mine1', 'mine2', 'mine3']) await store.create(link(code, 1), NOW);
    await store.close();
    expect(entriesOf(path)).toEqual({ links_by_age: 43, links_by_owner: 3, links_by_change: 3 });
  });

  it("still serve an owner's lists, newest first, and changes since a moment, with every other link stored", async () => {
    const path = join(dir, 'lists.db');
    const store = createSqliteLinkStore(path);
    for (let i = 0; i < 40; i++) await store.create({ ...link(`anon${i}`), createdAt: NOW + i }, NOW + i);
    for (const [i, code] of ['mine1', 'mine2', 'mine3'].entries())
      await store.create({ ...link(code, 1), createdAt: NOW + 100 + i }, NOW + 100 + i);
    const listed = await store.listLinks({ scope: { ownerId: 1 }, limit: 10, now: NOW });
    expect(listed.map((made) => made.code)).toEqual(['mine3', 'mine2', 'mine1']);
    const changes = await store.listChanges({ scope: { ownerId: 1 }, limit: 10, since: NOW });
    expect(changes.map((change) => (change.kind === 'link' ? change.link.code : undefined))).toEqual([
      'mine1',
      'mine2',
      'mine3',
    ]);
    await store.close();

    // The shapes of listLinks' and listChanges' owner queries (sqlite-link-management.ts): an
    // owner named with `=` implies `owner_id IS NOT NULL`, so the partial indexes are used.
    expect(
      planOf(path, 'SELECT code FROM links WHERE owner_id = @ownerId ORDER BY created_at DESC, code_key DESC LIMIT 10'),
    ).toMatch(/USING INDEX links_by_owner \(owner_id=\?\)/);
    expect(
      planOf(
        path,
        `SELECT code FROM links WHERE owner_id = @ownerId AND (updated_at, code_key) > (@at, @key)
         ORDER BY updated_at, code_key LIMIT 10`,
      ),
    ).toMatch(/USING INDEX links_by_change \(owner_id=\? AND/);
  });
});
