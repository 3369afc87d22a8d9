import { readFileSync } from 'node:fs';
import { deleteDB } from 'idb';
import { http } from 'msw';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHandler } from '../../core/handler.js';
import { generateApiKey, hashApiKey } from '../../core/management/owners/api-keys.js';
import { EXPORT_CSV_COLUMNS } from '../../core/management/porting/export-links.js';
import { codeKey } from '../../core/rules/code.js';
import { expiryFor } from '../../core/rules/expiry.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createLocalBackend } from '../../extension/backend/create-local-backend.js';
import { createIdbLinkStore, type IdbLinkStore } from '../../extension/backend/idb-link-store.js';
import { openLinkletDb } from '../../extension/backend/link-db.js';
import { localBase, openPageBase } from '../../extension/backend/local-backend.js';
import type { History } from '../../extension/history/history.js';
import { toHistoryFile } from '../../extension/history/history-file.js';
import type { LinksImportReport } from '../../extension/porting/import-links-file.js';
import type { BackgroundApi } from '../../extension/service/background-api.js';
import { createLinkService } from '../../extension/service/link-service.js';
import { DEFAULT_SETTINGS, type Settings, settingsItem } from '../../extension/settings.js';
import { createSyncScheduler } from '../../extension/sync/sync-scheduler.js';
import { entry, freshDbName, freshHistory, NOW, SERVER, useMockServer } from './helpers.js';

const { server, requests } = useMockServer();
const FIXTURES = new URL('../fixtures/import/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
const FIXTURE_NAMES = [
  'linklet.csv',
  'linklet.json',
  'shlink.csv',
  'dub.csv',
  'sink.json',
  'yourls.csv',
  'yourls-no-header.csv',
  'kutt.json',
];

/** One browser: its history, the bundled backend's store, and the background's API at `NOW`. */
interface Browser {
  api: BackgroundApi;
  history: History;
  store: IdbLinkStore;
  dispose: () => Promise<void>;
}

function openBrowser(): Browser {
  const { history, dispose: disposeHistory } = freshHistory();
  const storeDb = freshDbName();
  const store = createIdbLinkStore(() => openLinkletDb(storeDb));
  const api = createLinkService({
    store,
    history,
    handle: createLocalBackend(store),
    sync: createSyncScheduler(history),
    now: () => NOW,
  });
  return {
    api,
    history,
    store,
    dispose: async () => {
      await disposeHistory();
      await store.close();
      await deleteDB(storeDb);
    },
  };
}

/** The companion server: the real core handler on a memory store, at `NOW`, with one owner's key. */
async function startServer(): Promise<{ key: string; uploads: string[] }> {
  const remote = createMemoryLinkStore();
  const key = generateApiKey();
  await remote.createKey('alice', await hashApiKey(key), NOW);
  const handle = createHandler({ store: remote, baseUrl: SERVER, now: () => NOW });
  const uploads: string[] = [];
  server.use(
    http.all(`${SERVER}/*`, async ({ request }) => {
      if (new URL(request.url).pathname === '/api/v1/links/import') uploads.push(await request.clone().text());
      return handle(request);
    }),
  );
  return { key, uploads };
}

const useSettings = (settings: Partial<Settings>) => settingsItem.setValue({ ...DEFAULT_SETTINGS, ...settings });
const countsOf = ({ created, unchanged, conflict, invalid, skipped }: LinksImportReport) => ({
  created,
  unchanged,
  conflict,
  invalid,
  skipped,
});

let browser: Browser;
beforeEach(() => {
  browser = openBrowser();
});
afterEach(async () => {
  await browser.dispose();
});

describe('importing another export without a server (local links)', () => {
  it.each(FIXTURE_NAMES)('%s: the same counts as the server gives the same file', async (name) => {
    const { key } = await startServer();
    await useSettings({ serverUrl: SERVER, apiKey: key });
    const imported = await browser.api.importFile(fixture(name));
    if (imported.kind !== 'links') throw new Error('read as a history file');
    const onServer = imported.report;
    expect(onServer.target).toBe('server');

    const local = openBrowser();
    try {
      await useSettings({ serverUrl: '' });
      const again = await local.api.importFile(fixture(name));
      if (again.kind !== 'links') throw new Error('read as a history file');
      expect(again.report).toMatchObject({ target: 'local', format: onServer.format });
      expect(countsOf(again.report)).toEqual(countsOf(onServer));
      expect(again.report.created + again.report.invalid).toBeGreaterThan(0);
      const entries = await local.history.list();
      expect(entries).toHaveLength(again.report.created);
      for (const made of entries) {
        expect(made).toMatchObject({ status: 'local', server: null, customCode: true });
        expect(made.shortUrl).toBe(`${openPageBase()}/${made.code}/`);
        expect((await local.store.findByCodeKey(codeKey(made.code)))?.originalUrl).toBe(made.originalUrl);
      }
    } finally {
      await local.dispose();
    }
  });

  it('keeps each row its code and dates (an expiry at most a month away), opens the links through the bundled backend, and keeps a disabled row disabled', async () => {
    const csv = [
      'code,short_url,original_url,created_at,expiration_date,status,clicks',
      `spring,https://old.example/spring/,https://shop.example/spring,2026-01-02T03:04:05.000Z,2099-06-30T00:00:00.000Z,active,4`,
      `한글,https://old.example/x/,https://example.com/ko,2026-01-03T00:00:00.000Z,2099-07-01T00:00:00.000Z,disabled,0`,
      `my code,https://old.example/y/,https://example.com/space,,,active,0`,
    ].join('\n');
    const imported = await browser.api.importFile(csv);
    expect(imported).toMatchObject({
      kind: 'links',
      report: { target: 'local', format: 'linklet-csv', created: 2, invalid: 1 },
    });
    const spring = (await browser.history.list()).find((made) => made.code === 'spring');
    expect(spring).toMatchObject({
      originalUrl: 'https://shop.example/spring',
      createdAt: Date.parse('2026-01-02T03:04:05.000Z'),
      expiresAt: expiryFor('1month', NOW), // 2099 in the file: no further than a create may choose
    });
    vi.useFakeTimers({ toFake: ['Date'], now: NOW }); // the backend's clock, at the import's moment
    try {
      const handle = createLocalBackend(browser.store);
      const open = (code: string) => handle(new Request(`${localBase()}/${encodeURIComponent(code)}`));
      const opened = await open('spring');
      expect(opened.status).toBe(302);
      expect(opened.headers.get('Location')).toBe('https://shop.example/spring');
      expect((await open('한글')).status).toBe(410);
    } finally {
      vi.useRealTimers();
    }
    expect((await browser.history.list()).find((made) => made.code === '한글')?.disabled).toBe(true);
  });

  it('refuses a file in none of the formats, naming the accepted ones, and adds nothing', async () => {
    await expect(browser.api.importFile('name,link\nx,https://example.com\n')).rejects.toThrow(/Shlink CSV export/);
    expect(await browser.history.list()).toEqual([]);
  });

  it('still imports a Linklet history file as before', async () => {
    const file = toHistoryFile([entry({ code: 'histo', status: 'synced', fromServer: undefined })], NOW);
    await useSettings({ serverUrl: SERVER });
    expect(await browser.api.importFile(file)).toEqual({
      kind: 'history',
      report: { added: 1, skipped: 0, conflicts: 0, rebound: 0, dropped: 0 },
    });
    expect((await browser.history.list()).map((made) => made.code)).toEqual(['histo']);
  });
});

describe('importing with a server', () => {
  it('sends the file with the key to the server, shows its counts, and the pull brings the links in', async () => {
    const { key, uploads } = await startServer();
    await useSettings({ serverUrl: SERVER, apiKey: key });
    const file = fixture('shlink.csv');
    const imported = await browser.api.importFile(file);
    expect(imported.kind).toBe('links');
    expect(requests.filter((seen) => seen.url === `${SERVER}/api/v1/links/import`)).toHaveLength(1);
    expect(uploads).toEqual([file]);
    const { report } = imported as { report: LinksImportReport };
    expect(report).toMatchObject({ target: 'server', format: 'shlink-csv' });
    expect(report.created).toBeGreaterThan(0);
    // Nothing is made locally: the links are the server's, and arrive with the pull.
    await browser.api.sync({ force: true });
    const synced = (await browser.history.list()).filter((made) => made.status === 'synced');
    expect(synced).toHaveLength(report.created);
    expect(synced.every((made) => made.fromServer === true && made.server === SERVER)).toBe(true);
    expect(synced.map((made) => made.code)).toContain('guide');
  });

  it("shows the server's refusal of a file as its message", async () => {
    const { key } = await startServer();
    await useSettings({ serverUrl: SERVER, apiKey: key });
    await expect(browser.api.importFile('name,link\nx,https://example.com\n')).rejects.toThrow(
      /^The CSV header row names none of the formats Linklet imports: Linklet CSV export/,
    );
    expect(requests.map((seen) => `${seen.method} ${seen.url}`)).toEqual([`POST ${SERVER}/api/v1/links/import`]);
  });

  it('asks for the API key when a server is set without one, rather than import elsewhere', async () => {
    await useSettings({ serverUrl: SERVER, apiKey: '' });
    await expect(browser.api.importFile(fixture('dub.csv'))).rejects.toThrow(/needs its API key/);
    expect(requests).toEqual([]);
    expect(await browser.history.list()).toEqual([]);
  });
});

describe('exporting the history as the server exports links', () => {
  async function historyWithEveryKind() {
    await useSettings({ serverUrl: '' });
    const local = await browser.api.shorten({ url: 'https://example.com/local', code: 'loco' });
    await browser.store.addClick(codeKey('loco'));
    await browser.store.addClick(codeKey('loco'));
    await browser.history.put(
      entry({ code: 'remote', status: 'synced', clicks: 7, disabled: true, createdAt: NOW - 1000 }),
    );
    await browser.history.put(entry({ code: 'waiting', status: 'pending', createdAt: NOW - 2000 }));
    return local;
  }

  it('writes Linklet CSV: the server columns, local and synced links with their clicks, no pending ones', async () => {
    const local = await historyWithEveryKind();
    const text = await browser.api.exportLinks('csv');
    expect(text.startsWith('\ufeff')).toBe(true);
    const rows = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
    expect(rows.meta.fields).toEqual([...EXPORT_CSV_COLUMNS]);
    expect(rows.data).toEqual([
      {
        code: 'loco',
        short_url: local.shortUrl,
        original_url: 'https://example.com/local',
        created_at: new Date(NOW).toISOString(),
        expiration_date: new Date(local.expiresAt).toISOString(),
        status: 'active',
        clicks: '2',
        title: '',
        tags: '',
      },
      expect.objectContaining({ code: 'remote', short_url: `${SERVER}/remote/`, status: 'disabled', clicks: '7' }),
    ]);
  });

  it('writes Linklet JSON that a server imports back, and that imports into another browser', async () => {
    await historyWithEveryKind();
    const text = await browser.api.exportLinks('json');
    const parsed = JSON.parse(text) as { version: number; links: Array<Record<string, unknown>> };
    expect(parsed.version).toBe(1);
    expect(parsed.links.map((link) => [link.code, link.clicks])).toEqual([
      ['loco', 2],
      ['remote', 7],
    ]);

    const other = openBrowser();
    try {
      const imported = await other.api.importFile(text);
      expect(imported).toMatchObject({ kind: 'links', report: { format: 'linklet-json', created: 2 } });
      const moved = await other.history.list();
      expect(moved.map((made) => [made.code, made.originalUrl, made.disabled === true])).toEqual([
        ['loco', 'https://example.com/local', false],
        ['remote', 'https://example.com/remote', true],
      ]);
    } finally {
      await other.dispose();
    }
  });
});

describe('codes a spreadsheet would run as formulas', () => {
  it("are exported with a leading apostrophe, and another browser's import reads the original back", async () => {
    await useSettings({ serverUrl: '' });
    for (const code of ['-2-3', '--x']) await browser.api.shorten({ url: `https://example.com/${code}`, code });
    const text = await browser.api.exportLinks('csv');
    const rows = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
    expect(rows.data.map((row) => row.code).sort()).toEqual(["'--x", "'-2-3"]);

    const other = openBrowser();
    try {
      const imported = await other.api.importFile(text);
      expect(imported).toMatchObject({ kind: 'links', report: { format: 'linklet-csv', created: 2, invalid: 0 } });
      const moved = await other.history.list();
      expect(moved.map((made) => [made.code, made.originalUrl]).sort()).toEqual([
        ['--x', 'https://example.com/--x'],
        ['-2-3', 'https://example.com/-2-3'],
      ]);
      // Both links are made in the same millisecond, so the second browser may list them the other
      // way round; its clock (this file's fixed date) cuts their expiry to a month, as imports do.
      const lines = (csv: string) =>
        csv
          .trimEnd()
          .split('\r\n')
          .map((line) => line.split(',').toSpliced(4, 1).join(','))
          .sort();
      expect(lines(await other.api.exportLinks('csv'))).toEqual(lines(text));
    } finally {
      await other.dispose();
    }
  });
});

describe('clicks of local links in the history', () => {
  it('shows what the bundled backend counted, as for synced links', async () => {
    await useSettings({ serverUrl: '' });
    const made = await browser.api.shorten({ url: 'https://example.com/counted' });
    expect((await browser.api.listHistory())[0]?.clicks).toBe(0);
    await browser.store.addClick(codeKey(made.code));
    await browser.store.addClick(codeKey(made.code));
    await browser.store.addClick(codeKey(made.code));
    expect(await browser.api.listHistory()).toEqual([{ ...made, clicks: 3 }]);
  });

  it('shows none for a local entry whose code another local link holds', async () => {
    await useSettings({ serverUrl: '' });
    await browser.api.shorten({ url: 'https://example.com/holder', code: 'clash' });
    const stranger = entry({
      id: 'stranger',
      code: 'clash',
      status: 'local',
      server: null,
      originalUrl: 'https://example.com/other',
      shortUrl: `${openPageBase()}/clash/`,
    });
    await browser.history.put(stranger);
    const listed = (await browser.api.listHistory()).find((item) => item.id === 'stranger');
    expect(listed?.clicks).toBeUndefined();
  });
});
