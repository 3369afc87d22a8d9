import { openDB } from 'idb';
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createIdbLinkStore } from '../../extension/backend/idb-link-store.js';
import { DB_VERSION, openLinkletDb } from '../../extension/backend/link-db.js';
import { MIGRATIONS, type Migration } from '../../extension/backend/link-db-migrations.js';
import { createHistory } from '../../extension/history/history.js';
import { loadSettings } from '../../extension/settings.js';

// Databases and settings as earlier releases left them (aaedf42, before owners and clicks, wrote
// the same version 1 schema as the first release), opened by today's code.

const NOW = Date.UTC(2026, 10, 1);
let dbCount = 0;
const dbName = () => `linklet-migration-${++dbCount}`;

/** A version 1 database as every release up to today made it, holding records of that time. */
async function releaseV1Database(name: string, history: object[], links: object[]): Promise<void> {
  const db = await openDB(name, 1, {
    upgrade(old) {
      old.createObjectStore('links', { keyPath: 'codeKey' });
      const store = old.createObjectStore('history', { keyPath: 'id' });
      store.createIndex('by-created', 'createdAt');
      store.createIndex('by-status', 'status');
    },
  });
  for (const record of history) await db.put('history', record);
  for (const record of links) await db.put('links', record);
  db.close();
}

/** A history record as aaedf42 wrote it: no clicks, fromServer, disabled or queued. */
function aaedf42Entry(id: string, code: string, createdAt: number, extra: object = {}) {
  return {
    id,
    customCode: code === '업데이트',
    server: null,
    expire: '1week',
    createdAt,
    attempts: 0,
    shortUrl: `chrome-extension://abc/open.html#/${code}/`,
    originalUrl: `https://example.com/${id}`,
    code,
    expiresAt: createdAt + 7 * 86_400_000,
    status: 'local',
    ...extra,
  };
}

describe('the IndexedDB migrations', () => {
  it('record the version reached as IndexedDB version: one per step', async () => {
    const name = dbName();
    const db = await openLinkletDb(name);
    expect(db.version).toBe(MIGRATIONS.length);
    expect(DB_VERSION).toBe(MIGRATIONS.length);
    expect([...db.objectStoreNames].sort()).toEqual(['history', 'links']);
    expect([...db.transaction('history').store.indexNames].sort()).toEqual(['by-created', 'by-status']);
    db.close();
  });

  it('open an aaedf42 database in place: every link listed, its Hangul code held and opened, clicks counted', async () => {
    const name = dbName();
    const codes = ['업데이트', 'mine', 'khk3xb5'];
    await releaseV1Database(
      name,
      codes.map((code, i) => aaedf42Entry(`e${i}`, code, NOW + i)),
      codes.map((code, i) => ({
        code,
        codeKey: code,
        originalUrl: `https://example.com/e${i}`,
        createdAt: NOW + i,
        expiresAt: NOW + 1e9,
      })),
    );
    const history = createHistory(() => openLinkletDb(name));
    expect((await history.list()).map((entry) => entry.code)).toEqual(['khk3xb5', 'mine', '업데이트']);
    expect(await history.list({ query: '업데이트' })).toHaveLength(1);
    const store = createIdbLinkStore(() => openLinkletDb(name));
    await store.addClick('업데이트');
    expect(await store.findByCodeKey('업데이트')).toMatchObject({ originalUrl: 'https://example.com/e0', clicks: 1 });
    const taken = await store.create(
      { code: '업데이트', codeKey: '업데이트', originalUrl: 'https://x.example/', createdAt: NOW, expiresAt: NOW + 1 },
      NOW,
    );
    expect(taken.created).toBe(false);
    await store.close();
  });

  it('run only the steps a database has not run, in order', async () => {
    const name = dbName();
    const ran: string[] = [];
    const first: Migration = (db) => {
      ran.push('first');
      MIGRATIONS[0]?.(db, undefined as never);
    };
    (await openLinkletDb(name, [first])).close();
    const second: Migration = (_db, tx) => {
      ran.push('second');
      tx.objectStore('history').createIndex('by-server' as never, 'server');
    };
    const db = await openLinkletDb(name, [first, second]);
    expect(ran).toEqual(['first', 'second']);
    expect(db.version).toBe(2);
    expect([...db.transaction('history').store.indexNames]).toContain('by-server');
    db.close();
  });

  it('leave the database at its version, data and all, when a step fails (tried again on the next open)', async () => {
    const name = dbName();
    await releaseV1Database(name, [aaedf42Entry('kept', 'kept1', NOW)], []);
    const failing: Migration = () => {
      throw new Error('a step that fails');
    };
    await expect(openLinkletDb(name, [...MIGRATIONS, failing])).rejects.toThrow();
    const db = await openLinkletDb(name);
    expect(db.version).toBe(1);
    expect(await db.get('history', 'kept')).toMatchObject({ code: 'kept1' });
    db.close();
  });
});

describe('history records of older shapes', () => {
  it('are read with the fields they lack, an unknown date last; a record that cannot be read is skipped, logged, and the rest listed', async () => {
    const name = dbName();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { attempts: _attempts, customCode: _custom, ...bare } = aaedf42Entry('bare', 'bare123', NOW + 2);
    await releaseV1Database(
      name,
      [
        aaedf42Entry('ok', 'ok12345', NOW + 1),
        { ...bare, server: '', expire: 'forever' },
        aaedf42Entry('no-url', 'nourl12', NOW + 3, { originalUrl: undefined }),
        aaedf42Entry('no-date', 'nodate1', NOW, { createdAt: undefined }),
        aaedf42Entry('odd-status', 'odd1234', NOW + 4, { status: 'archived' }),
      ],
      [],
    );
    const history = createHistory(() => openLinkletDb(name));
    const listed = await history.list();
    expect(listed.map((entry) => entry.id)).toEqual(['bare', 'ok', 'no-date']);
    expect(listed[2]?.createdAt).toBeNaN();
    expect(listed[0]).toMatchObject({ attempts: 0, customCode: false, server: null, expire: '1week' });
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      'Linklet history: a record (id "no-url") is skipped: its originalUrl is not text.',
      'Linklet history: a record (id "odd-status") is skipped: its status is archived.',
    ]);
    expect(await history.get('no-url')).toBeUndefined();
    expect(await history.get('bare')).toMatchObject({ code: 'bare123' });
    warn.mockRestore();
  });
});

describe('settings of older shapes', () => {
  it('keep what aaedf42 saved (no API key then) and give a damaged field its default', async () => {
    await fakeBrowser.storage.local.set({
      settings: { serverUrl: 'https://sho.rt', defaultExpire: '1month', autoCopy: false },
    });
    expect(await loadSettings()).toEqual({
      serverUrl: 'https://sho.rt',
      apiKey: '',
      defaultExpire: '1month',
      autoCopy: false,
    });
    await fakeBrowser.storage.local.set({ settings: { serverUrl: 7, defaultExpire: 'forever', autoCopy: 'yes' } });
    expect(await loadSettings()).toEqual({ serverUrl: '', apiKey: '', defaultExpire: '1week', autoCopy: true });
  });
});
