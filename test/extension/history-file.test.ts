import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveCode } from '../../core/redirect/resolve.js';
import { codeKey } from '../../core/rules/code.js';
import { createIdbLinkStore, type IdbLinkStore } from '../../extension/backend/idb-link-store.js';
import { openLinkletDb } from '../../extension/backend/link-db.js';
import { openPageBase } from '../../extension/backend/local-backend.js';
import type { History } from '../../extension/history/history.js';
import type { HistoryEntry } from '../../extension/history/history-entry.js';
import { parseHistoryFile, toHistoryFile } from '../../extension/history/history-file.js';
import { importHistory } from '../../extension/history/import-history.js';
import { entry, freshDbName, freshHistory, NOW, SERVER } from './helpers.js';

const DAY = 86_400_000;
const local = (code: string, overrides: Partial<HistoryEntry> = {}) =>
  entry({
    id: `local-${code}`,
    code,
    server: null,
    status: 'local',
    shortUrl: `chrome-extension://old-id/open.html#/${code}/`,
    originalUrl: `https://example.com/${code}`,
    ...overrides,
  });

/** One of every kind, with every optional field somewhere. */
const sample: HistoryEntry[] = [
  local('Loc한글', { customCode: true, expire: '1month' }),
  entry({ id: 'synced', code: 'syn2345', status: 'synced', attempts: 0 }),
  entry({ id: 'pending', code: 'pen2345', attempts: 2, nextAttemptAt: NOW + 60_000, message: 'Could not reach' }),
  entry({ id: 'conflict', code: 'Promo', customCode: true, status: 'conflict', message: 'in use' }),
  entry({ id: 'failed', code: '', shortUrl: '', status: 'failed', message: 'refused' }),
];

/** A valid file with `change` applied to its first link. */
function fileWith(change: (link: Record<string, unknown>) => void): string {
  const file = JSON.parse(toHistoryFile(sample, NOW));
  change(file.links[0]);
  return JSON.stringify(file);
}

describe('history file', () => {
  it('reads back exactly what it exported', () => {
    const text = toHistoryFile(sample, NOW);
    expect(JSON.parse(text)).toMatchObject({
      format: 'linklet-history',
      version: 1,
      exportedAt: new Date(NOW).toISOString(),
    });
    expect(parseHistoryFile(text)).toEqual(sample);
  });

  it('reads an empty history', () => {
    expect(parseHistoryFile(toHistoryFile([], NOW))).toEqual([]);
  });

  it.each([
    ['', /not JSON/],
    ['{"format":', /not JSON/],
    ['<html></html>', /not JSON/],
  ])('refuses a file that is not JSON (%j)', (text, message) => {
    expect(() => parseHistoryFile(text)).toThrow(message);
  });

  it.each([
    ['another format', JSON.stringify({ format: 'bookmarks', version: 1, links: [] }), 'format'],
    ['a later version', JSON.stringify({ format: 'linklet-history', version: 2, links: [] }), 'version'],
    ['no links', JSON.stringify({ format: 'linklet-history', version: 1 }), 'links'],
    ['an array', '[]', 'format'],
    ['null', 'null', 'format'],
  ])('refuses %s, naming where', (_, text, where) => {
    expect(() => parseHistoryFile(text)).toThrow(
      new RegExp(`^This is not a Linklet history file \\(${where}: .+\\)\\.$`),
    );
  });

  it.each([
    ['a missing id', (l: Record<string, unknown>) => delete l.id, 'links.0.id'],
    ['an empty id', (l: Record<string, unknown>) => (l.id = ''), 'links.0.id'],
    ['an unknown status', (l: Record<string, unknown>) => (l.status = 'lost'), 'links.0.status'],
    ['an unknown expiry', (l: Record<string, unknown>) => (l.expire = '1year'), 'links.0.expire'],
    ['a date as text', (l: Record<string, unknown>) => (l.createdAt = '2026-01-01'), 'links.0.createdAt'],
    [
      'a javascript: URL',
      (l: Record<string, unknown>) => (l.originalUrl = 'javascript:alert(1)'),
      'links.0.originalUrl',
    ],
    ['a data: short URL', (l: Record<string, unknown>) => (l.shortUrl = 'data:text/html,hi'), 'links.0.shortUrl'],
    ['a server that is not a web URL', (l: Record<string, unknown>) => (l.server = 'file:///x'), 'links.0.server'],
    ['customCode as text', (l: Record<string, unknown>) => (l.customCode = 'yes'), 'links.0.customCode'],
  ])('refuses a link with %s, naming its path', (_, change, path) => {
    expect(() => parseHistoryFile(fileWith(change))).toThrow(`(${path}: `);
  });

  // Crafted files: each of these once went into IndexedDB, and some opened or broke the popup.
  type Link = Record<string, unknown>;
  it.each([
    ['a reserved code', 0, (l: Link) => (l.code = 'API'), 'links.0.code'],
    ['a code with / ? <', 0, (l: Link) => (l.code = 'a/b?<x>'), 'links.0.code'],
    ['a code of 65 characters', 1, (l: Link) => (l.code = 'x'.repeat(65)), 'links.1.code'],
    ['an empty code on a synced link', 1, (l: Link) => (l.code = ''), 'links.1.code'],
    ['a URL with credentials', 1, (l: Link) => (l.originalUrl = 'https://user:pw@example.com/'), 'links.1.originalUrl'],
    ['a URL with a space', 1, (l: Link) => (l.originalUrl = 'https://example.com/a b'), 'links.1.originalUrl'],
    ['an expiry no Date can hold', 1, (l: Link) => (l.expiresAt = 1e300), 'links.1.expiresAt'],
    ['a creation date no Date can hold', 2, (l: Link) => (l.createdAt = -1e300), 'links.2.createdAt'],
    ['a fractional attempt count', 2, (l: Link) => (l.attempts = 1.5), 'links.2.attempts'],
    [
      'a data: short URL on a synced link',
      1,
      (l: Link) => (l.shortUrl = 'data:text/html,<script>'),
      'links.1.shortUrl',
    ],
    ['a short URL on another host', 1, (l: Link) => (l.shortUrl = 'https://evil.example/x/'), 'links.1.shortUrl'],
    [
      'a javascript: local short URL',
      0,
      (l: Link) => (l.shortUrl = 'javascript:alert(1)//open.html#/'),
      'links.0.shortUrl',
    ],
    ['a local link bound to a server', 0, (l: Link) => (l.server = SERVER), 'links.0.server'],
    ['a synced link without a server', 1, (l: Link) => (l.server = null), 'links.1.server'],
    ['a server with a query', 2, (l: Link) => (l.server = `${SERVER}/?x=1`), 'links.2.server'],
  ])('refuses %s', (_, index, change, path) => {
    const file = JSON.parse(toHistoryFile(sample, NOW));
    change(file.links[index]);
    expect(() => parseHistoryFile(JSON.stringify(file))).toThrow(`(${path}: `);
  });
});

describe('importHistory', () => {
  let history: History;
  let disposeHistory: () => Promise<void>;
  let store: IdbLinkStore;
  let storeDb: string;

  beforeEach(() => {
    ({ history, dispose: disposeHistory } = freshHistory());
    storeDb = freshDbName();
    store = createIdbLinkStore(() => openLinkletDb(storeDb));
  });
  afterEach(async () => {
    await disposeHistory();
    await store.close();
    await deleteDB(storeDb);
  });
  const deps = (server = SERVER) => ({ history, store, now: NOW, server, openPageBase: openPageBase() });
  /** A local link as this browser records it: its short URL opens this extension's page. */
  const here = (made: HistoryEntry) =>
    made.status === 'local' ? { ...made, shortUrl: `${openPageBase()}/${made.code}/` } : made;

  it('adds every entry and gives active local links back to the bundled backend', async () => {
    const entries = parseHistoryFile(toHistoryFile(sample, NOW));
    expect(await importHistory(entries, deps())).toEqual({
      added: 5,
      skipped: 0,
      conflicts: 0,
      rebound: 0,
      dropped: 0,
    });
    for (const made of sample) expect(await history.get(made.id)).toEqual(here(made));

    const resolved = await resolveCode(encodeURIComponent('loc한글'), store, NOW + 1000);
    expect(resolved).toEqual({
      state: 'active',
      link: {
        code: 'Loc한글',
        codeKey: codeKey('Loc한글'),
        originalUrl: 'https://example.com/Loc한글',
        createdAt: NOW,
        expiresAt: NOW + 7 * DAY,
      },
    });
    // Links of a server are the server's: the bundled backend does not answer for them.
    expect(await store.findByCodeKey('syn2345')).toBeUndefined();
    expect(await store.findByCodeKey('pen2345')).toBeUndefined();
  });

  it('skips entries already in the history and keeps them as they are', async () => {
    const mine = entry({ id: 'synced', code: 'syn2345', status: 'synced', message: 'mine' });
    await history.put(mine);
    const report = await importHistory(sample, deps());
    expect(report).toEqual({ added: 4, skipped: 1, conflicts: 0, rebound: 0, dropped: 0 });
    expect(await history.get('synced')).toEqual(mine);

    // Importing the same file twice adds nothing.
    expect(await importHistory(sample, deps())).toMatchObject({ added: 0, skipped: 5, conflicts: 0 });
    expect(await history.list()).toHaveLength(5);
  });

  it('counts a local code held here by another link as a conflict, keeping the holder', async () => {
    const holder = {
      code: 'shared',
      codeKey: 'shared',
      originalUrl: 'https://here.example/',
      createdAt: NOW,
      expiresAt: NOW + DAY,
    };
    await store.create(holder, NOW);
    const incoming = local('SHARED', { originalUrl: 'https://there.example/' });
    expect(await importHistory([incoming], deps())).toEqual({
      added: 1,
      skipped: 0,
      conflicts: 1,
      rebound: 0,
      dropped: 0,
    });
    expect(await store.findByCodeKey('shared')).toEqual(holder);
    expect(await history.get(incoming.id)).toEqual(here(incoming));
  });

  it('counts a local link already here (the same code and URL, under another id) as already here, not taken', async () => {
    const first = local('same2345');
    expect(await importHistory([first], deps())).toMatchObject({ added: 1, conflicts: 0 });
    // The same link exported by another browser: its own id, the same code and target.
    const again = { ...first, id: 'another-id' };
    expect(await importHistory([again], deps())).toEqual({
      added: 0,
      skipped: 1,
      conflicts: 0,
      rebound: 0,
      dropped: 0,
    });
    expect(await history.get('another-id')).toBeUndefined();
  });

  it('records an expired local link without restoring it', async () => {
    const expired = local('old2345', { createdAt: NOW - 2 * DAY, expiresAt: NOW - DAY });
    const endsNow = local('now2345', { expiresAt: NOW });
    expect(await importHistory([expired, endsNow], deps())).toEqual({
      added: 2,
      skipped: 0,
      conflicts: 0,
      rebound: 0,
      dropped: 0,
    });
    expect(await store.findByCodeKey('old2345')).toBeUndefined();
    expect(await store.findByCodeKey('now2345')).toBeUndefined();
    expect(await history.get(expired.id)).toEqual(here(expired));
  });

  it('replaces an expired holder of the code here', async () => {
    await store.create(
      { code: 'reuse', codeKey: 'reuse', originalUrl: 'https://old.example/', createdAt: 0, expiresAt: NOW - 1 },
      NOW - DAY,
    );
    const report = await importHistory([local('reuse')], deps());
    expect(report.conflicts).toBe(0);
    expect((await store.findByCodeKey('reuse'))?.originalUrl).toBe('https://example.com/reuse');
  });

  it('binds pending links for another server to the configured one, or drops them in local mode', async () => {
    const other = 'https://other.example';
    const waiting = entry({
      id: 'waiting',
      code: 'wait234',
      server: other,
      shortUrl: `${other}/wait234/`,
      attempts: 3,
    });
    const done = entry({ id: 'done', code: 'done234', status: 'synced', server: other, shortUrl: `${other}/done234/` });
    expect(await importHistory([waiting, done], deps())).toMatchObject({ added: 2, rebound: 1, dropped: 0 });
    expect(await history.get('waiting')).toEqual({
      ...waiting,
      server: SERVER,
      shortUrl: `${SERVER}/wait234/`,
      nextAttemptAt: NOW,
    });
    // A link already on the other server is a record of it, not a request to send.
    expect(await history.get('done')).toEqual(done);
    expect((await history.pending()).map((e) => e.server)).toEqual([SERVER]);

    const again = entry({ id: 'again', code: 'again23', server: other, shortUrl: `${other}/again23/` });
    expect(await importHistory([again], deps(''))).toMatchObject({ added: 0, rebound: 0, dropped: 1 });
    expect(await history.get('again')).toBeUndefined();
  });

  it("gives an imported local link this browser's short URL, whatever the file said", async () => {
    const foreign = local('Fx2345', { shortUrl: 'moz-extension://0b1c-uuid/open.html#/Fx2345/' });
    await importHistory([foreign], deps());
    expect((await history.get(foreign.id))?.shortUrl).toBe(`${openPageBase()}/Fx2345/`);
  });
});
