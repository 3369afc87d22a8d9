import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ApiError } from '../../client/api-errors.js';
import { createLocalBackend } from '../../extension/backend/create-local-backend.js';
import { createIdbLinkStore, type IdbLinkStore } from '../../extension/backend/idb-link-store.js';
import { openLinkletDb } from '../../extension/backend/link-db.js';
import { openPageBase } from '../../extension/backend/local-backend.js';
import type { History } from '../../extension/history/history.js';
import { toHistoryFile } from '../../extension/history/history-file.js';
import { createApiAnswerer } from '../../extension/service/api-answerer.js';
import { type BackgroundApi, createBackgroundClient, isApiCall } from '../../extension/service/background-api.js';
import { createLinkService } from '../../extension/service/link-service.js';
import { DEFAULT_SETTINGS, type Settings, settingsItem } from '../../extension/settings.js';
import { createSyncScheduler } from '../../extension/sync/sync-scheduler.js';
import { entry, freshDbName, freshHistory, linkletServer, SERVER, useMockServer } from './helpers.js';

const { server, requests } = useMockServer();

let history: History;
let disposeHistory: () => Promise<void>;
let store: IdbLinkStore;
let storeDb: string;
let api: BackgroundApi;

/**
 * The popup's view of the background, wired as in the extension: a page-side client whose calls
 * travel as runtime messages (structured-cloned, as the browser does) to the service.
 */
beforeEach(() => {
  ({ history, dispose: disposeHistory } = freshHistory());
  storeDb = freshDbName();
  store = createIdbLinkStore(() => openLinkletDb(storeDb));
  const service = createLinkService({
    store,
    history,
    handle: createLocalBackend(store),
    sync: createSyncScheduler(history),
  });
  const answer = createApiAnswerer(service);
  fakeBrowser.runtime.onMessage.addListener((message: unknown) =>
    answer(structuredClone(message))?.then((reply) => structuredClone(reply)),
  );
  api = createBackgroundClient((call) => browser.runtime.sendMessage(call));
});
afterEach(async () => {
  await disposeHistory();
  await store.close();
  await deleteDB(storeDb);
});

const useSettings = (settings: Partial<Settings>) => settingsItem.setValue({ ...DEFAULT_SETTINGS, ...settings });

describe('the background API, as a page calls it', () => {
  it('shortens and records in local mode, and gives the same link when the page is shortened again', async () => {
    const made = await api.shorten({ url: 'https://example.com/a' }, { reuse: true });
    expect(made).toMatchObject({ status: 'local', expire: '1week', shortUrl: `${openPageBase()}/${made.code}/` });
    expect(await api.shorten({ url: 'https://example.com/a' }, { reuse: true })).toEqual(made);
    // A local link shows the clicks the bundled backend counted, none yet.
    expect(await api.listHistory()).toEqual([{ ...made, clicks: 0 }]);
    expect((await store.findByCodeKey(made.code))?.originalUrl).toBe('https://example.com/a');
  });

  it('brings back a refusal as an ApiError with its status, and says when a taken code frees up', async () => {
    await api.shorten({ url: 'https://example.com/first', code: 'taken', expire: '24h' });
    const error = await api.shorten({ url: 'https://example.com/second', code: 'TAKEN' }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/already in use.* It can be used after .+\.$/);
    const bad = await api.shorten({ url: 'https://example.com/third', code: 'a/b' }).catch((e) => e);
    expect(bad).toMatchObject({ name: 'ApiError', status: 400 });
  });

  it('lists synced links by a tag or by words of their title, and the tags to filter by', async () => {
    const labelled = { status: 'synced', server: SERVER } as const;
    await history.put(entry({ ...labelled, code: 'trip', title: 'Jeju trip plan', tags: ['travel', '가족'] }));
    await history.put(entry({ ...labelled, code: 'memo', title: 'Team memo', tags: ['work'] }));
    const codes = async (options: Parameters<BackgroundApi['listHistory']>[0]) =>
      (await api.listHistory(options)).map((listed) => listed.code);
    expect(await codes({ tag: '가족' })).toEqual(['trip']);
    expect(await codes({ query: 'jeju' })).toEqual(['trip']);
    expect(await codes({ query: 'WORK' })).toEqual(['memo']);
    expect(await api.listTags()).toEqual(['travel', 'work', '가족']);
  });

  it('deletes a local link from the history and from the bundled backend', async () => {
    const made = await api.shorten({ url: 'https://example.com/gone', code: 'gone' });
    await api.deleteLink(made.id);
    expect(await api.listHistory()).toEqual([]);
    expect(await store.findByCodeKey('gone')).toBeUndefined();
  });

  it('opens a local link for the open page: its URL, with the opening counted as a click', async () => {
    const made = await api.shorten({ url: 'https://example.com/봄', code: '봄-세일', expire: '24h' });
    expect(await api.openLocalLink(encodeURIComponent('봄-세일'))).toEqual({
      state: 'go',
      url: 'https://example.com/봄',
    });
    expect(await api.openLocalLink('봄-세일')).toMatchObject({ state: 'go' });
    expect(await api.listHistory()).toEqual([{ ...made, clicks: 2 }]);
    expect(await api.openLocalLink('nobody')).toEqual({ state: 'missing' });
    expect(await api.openLocalLink('')).toEqual({ state: 'missing' });
    // A day later, the same code is expired, and the page says since when; no click is counted.
    const later = createLinkService({
      store,
      history,
      handle: createLocalBackend(store),
      sync: createSyncScheduler(history),
      now: () => made.expiresAt + 1,
    });
    expect(await later.openLocalLink('봄-세일')).toEqual({ state: 'expired', expiresAt: made.expiresAt });
    expect((await store.findByCodeKey('봄-세일'))?.clicks).toBe(2);
  });

  it('retries a link made for a server the user left on the one configured now', async () => {
    server.use(linkletServer());
    await useSettings({ serverUrl: SERVER });
    const old = 'https://old.example';
    await history.put(
      entry({ id: 'moved', code: 'mov2345', server: old, shortUrl: `${old}/mov2345/`, status: 'failed' }),
    );
    expect(await api.retryLink('moved')).toMatchObject({ synced: 1 });
    expect((await history.get('moved'))?.server).toBe(SERVER);
    expect(requests.map((r) => new URL(r.url).origin)).toEqual([SERVER]);
  });

  it('says what to do when a link cannot be retried', async () => {
    await history.put(entry({ id: 'waiting' }));
    await expect(api.retryLink('waiting')).rejects.toThrow('Set a companion server in the options');
    await expect(api.retryLink('nobody')).rejects.toThrow('no longer in the history');
  });

  it('imports a file in the background, refusing a crafted one with the path of the problem', async () => {
    const crafted = toHistoryFile([entry({ code: 'API', status: 'synced' })], Date.now());
    await expect(api.importHistory(crafted)).rejects.toThrow('(links.0.code: ');
    const file = toHistoryFile([entry({ id: 'ok', code: 'ok23456', status: 'synced' })], Date.now());
    expect(await api.importHistory(file)).toMatchObject({ added: 1 });
  });

  it('tells the page when the background stopped before it answered', async () => {
    const gone = createBackgroundClient(() =>
      Promise.reject(new Error('The message port closed before a response was received.')),
    );
    await expect(gone.listHistory()).rejects.toThrow("Linklet's background stopped before it answered; try again.");
    const silent = createBackgroundClient(() => Promise.resolve(undefined));
    await expect(silent.sync()).rejects.toThrow("Linklet's background stopped");
  });

  it('answers only the methods of the API', () => {
    expect(isApiCall({ type: 'linklet:call', method: 'listHistory', args: [] })).toBe(true);
    for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'nope']) {
      expect(isApiCall({ type: 'linklet:call', method, args: [] })).toBe(false);
    }
    expect(isApiCall({ type: 'linklet:call', method: 'sync' })).toBe(false);
  });
});
