import { deleteDB } from 'idb';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../core/management/owners/api-keys.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createLocalBackend } from '../../extension/backend/create-local-backend.js';
import { createIdbLinkStore, type IdbLinkStore } from '../../extension/backend/idb-link-store.js';
import { openLinkletDb } from '../../extension/backend/link-db.js';
import type { History } from '../../extension/history/history.js';
import { whoAmI } from '../../extension/server/server-client.js';
import type { BackgroundApi } from '../../extension/service/background-api.js';
import { createLinkService } from '../../extension/service/link-service.js';
import { DEFAULT_SETTINGS, settingsItem } from '../../extension/settings.js';
import { mergeChanges } from '../../extension/sync/pull-links.js';
import { createSyncScheduler } from '../../extension/sync/sync-scheduler.js';
import { recordKeyRefused, syncStatusFor } from '../../extension/sync/sync-status.js';
import { pushAndPull } from '../../extension/sync/two-way-sync.js';
import { entry, freshDbName, freshHistory, linkletServer, SERVER, serverDown, useMockServer } from './helpers.js';

const { server, requests } = useMockServer();

let history: History;
let disposeHistory: () => Promise<void>;
let store: IdbLinkStore;
let storeDb: string;
let api: BackgroundApi;
/** The companion server's database: the real core handler answers on it (see `linkletServer`). */
let remote: ReturnType<typeof createMemoryLinkStore>;
let key: string;

beforeEach(async () => {
  ({ history, dispose: disposeHistory } = freshHistory());
  storeDb = freshDbName();
  store = createIdbLinkStore(() => openLinkletDb(storeDb));
  remote = createMemoryLinkStore();
  key = generateApiKey();
  await remote.createKey('alice', await hashApiKey(key), Date.now());
  server.use(linkletServer(remote));
  await settingsItem.setValue({ ...DEFAULT_SETTINGS, serverUrl: SERVER, apiKey: key });
  api = createLinkService({ store, history, handle: createLocalBackend(store), sync: createSyncScheduler(history) });
});
afterEach(async () => {
  await disposeHistory();
  await store.close();
  await deleteDB(storeDb);
});

/** Another of alice's devices, talking to the same server with the same key. */
async function elsewhere(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${SERVER}${path}`, {
    method,
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { data?: Record<string, unknown> };
  expect(response.ok, JSON.stringify(envelope)).toBe(true);
  return envelope.data ?? {};
}
const makeElsewhere = (url: string, code?: string) =>
  elsewhere('POST', '/api/v1/shorten', { original_url: url, custom_code: code });

const byCode = async (code: string) => (await history.list()).find((item) => item.code === code);

describe('pulling with an API key', () => {
  it('adds a link made on another device, marked as from the server, with its clicks', async () => {
    await makeElsewhere('https://example.com/laptop', 'laptop');
    const report = await api.sync();
    expect(report.pulled).toEqual({ added: 1, updated: 0, removed: 0 });
    expect(await byCode('laptop')).toMatchObject({
      status: 'synced',
      fromServer: true,
      shortUrl: `${SERVER}/laptop/`,
      originalUrl: 'https://example.com/laptop',
      server: SERVER,
      clicks: 0,
      disabled: false,
    });
    expect(requests.find((r) => r.url.includes('/api/v1/links'))?.url).not.toContain('changed_since');
  });

  it('updates a changed link (target, status) and asks only for changes since the last pull', async () => {
    await makeElsewhere('https://example.com/old', 'moved');
    await api.sync();
    await elsewhere('PATCH', '/api/v1/links/moved', { original_url: 'https://example.com/new', disabled: true });
    requests.length = 0;
    expect((await api.sync()).pulled).toEqual({ added: 0, updated: 1, removed: 0 });
    expect(await byCode('moved')).toMatchObject({ originalUrl: 'https://example.com/new', disabled: true });
    expect(requests.find((r) => r.url.includes('/api/v1/links'))?.url).toContain('changed_since=');
  });

  it('removes a link deleted on another device', async () => {
    await makeElsewhere('https://example.com/bye', 'bye');
    await api.sync();
    await elsewhere('DELETE', '/api/v1/links/bye');
    expect((await api.sync()).pulled).toEqual({ added: 0, updated: 0, removed: 1 });
    expect(await byCode('bye')).toBeUndefined();
  });

  it('makes links with the key, so they belong to the owner, and does not add them twice', async () => {
    const made = await api.shorten({ url: 'https://example.com/mine', code: 'mine' });
    await api.sync();
    const listed = (await elsewhere('GET', '/api/v1/links')) as { links: { code: string }[] };
    expect(listed.links.map((link) => link.code)).toEqual(['mine']);
    const [only, ...others] = await history.list();
    expect(others).toEqual([]);
    expect(only).toMatchObject({ id: made.id, code: 'mine', status: 'synced' });
    expect(only).not.toHaveProperty('fromServer');
  });

  it('pages through next_cursor until the last page', async () => {
    for (let i = 0; i < 130; i++) await makeElsewhere(`https://example.com/${i}`, `page${i}`);
    const report = await api.sync();
    expect(report.pulled?.added).toBe(130);
    expect((await history.list()).length).toBe(130);
    const pulls = requests.filter((r) => r.url.includes('/api/v1/links'));
    expect(pulls).toHaveLength(2);
    expect(new URL(pulls[1]?.url ?? '').searchParams.get('cursor')).toBeTruthy();
  });

  it('follows next_cursor of a changes listing and keeps the newest updated_at for the next pull', async () => {
    const link = (code: string, updated: string, clicks: number) => ({
      code,
      short_url: `${SERVER}/${code}/`,
      original_url: `https://example.com/${code}`,
      created_at: '2026-05-20T09:00:00.000Z',
      expiration_date: '2099-05-27T09:00:00.000Z',
      status: 'active',
      clicks,
      updated_at: updated,
    });
    const seen: URL[] = [];
    server.use(
      http.get(`${SERVER}/api/v1/links`, ({ request }) => {
        const url = new URL(request.url);
        seen.push(url);
        const data =
          url.searchParams.get('cursor') === 'p2'
            ? { links: [link('second', '2026-05-20T09:00:02.000Z', 7)], next_cursor: null }
            : { links: [link('first', '2026-05-20T09:00:01.000Z', 3)], next_cursor: 'p2' };
        return HttpResponse.json({ status: 'success', message: '1 links.', data });
      }),
    );
    await api.sync();
    expect(seen.map((url) => url.searchParams.get('cursor'))).toEqual([null, 'p2']);
    expect(await byCode('first')).toMatchObject({ clicks: 3, fromServer: true });
    expect(await byCode('second')).toMatchObject({ clicks: 7 });
    expect((await syncStatusFor(SERVER)).since).toBe('2026-05-20T09:00:02.000Z');
  });

  it('leaves out an item whose short URL is not under the server, and keeps the rest', async () => {
    server.use(
      http.get(`${SERVER}/api/v1/links`, () =>
        HttpResponse.json({
          status: 'success',
          message: '2 links.',
          data: {
            next_cursor: null,
            links: ['https://evil.example/x/', `${SERVER}/good/`].map((shortUrl, i) => ({
              code: i === 0 ? 'evil' : 'good',
              short_url: shortUrl,
              original_url: 'https://example.com/',
              created_at: '2026-05-20T09:00:00.000Z',
              expiration_date: '2099-05-27T09:00:00.000Z',
              status: 'active',
              clicks: 0,
              updated_at: '2026-05-20T09:00:00.000Z',
            })),
          },
        }),
      ),
    );
    await api.sync();
    expect((await history.list()).map((item) => item.code)).toEqual(['good']);
  });

  it('does nothing of this without a key: no pull, creates without a key', async () => {
    await settingsItem.setValue({ ...DEFAULT_SETTINGS, serverUrl: SERVER });
    await api.shorten({ url: 'https://example.com/anon' });
    const report = await api.sync();
    expect(report.pulled).toBeUndefined();
    expect(requests.some((r) => r.url.includes('/api/v1/links'))).toBe(false);
  });
});

describe('a local change against a remote one', () => {
  it('replays a Disable queued offline on top of the server, whose new target wins', async () => {
    await makeElsewhere('https://example.com/before', 'both');
    await api.sync();
    const local = await byCode('both');
    server.use(serverDown);
    const offline = await api.setDisabled(local?.id ?? '', true);
    expect(offline.changesWaiting).toBe(1);
    expect(await byCode('both')).toMatchObject({ queued: 'disable', disabled: false });
    // Meanwhile another device changes the target.
    server.use(linkletServer(remote));
    await elsewhere('PATCH', '/api/v1/links/both', { original_url: 'https://example.com/after' });

    const back = await api.sync();
    expect(back.changesWaiting).toBe(0);
    const merged = await byCode('both');
    expect(merged).toMatchObject({ originalUrl: 'https://example.com/after', disabled: true });
    expect(merged?.queued).toBeUndefined();
    expect(await elsewhere('GET', '/api/v1/links/both')).toMatchObject({
      original_url: 'https://example.com/after',
      status: 'disabled',
    });
  });

  it('queues a Delete while the server is down, shows it, and deletes on the server when it is back', async () => {
    await makeElsewhere('https://example.com/later', 'later');
    await api.sync();
    const local = await byCode('later');
    server.use(serverDown);
    await api.deleteLink(local?.id ?? '');
    expect(await byCode('later')).toMatchObject({
      queued: 'delete',
      message: expect.stringContaining('Could not reach'),
    });
    server.use(linkletServer(remote));
    await api.sync();
    expect(await byCode('later')).toBeUndefined();
    const listed = (await elsewhere('GET', '/api/v1/links')) as { links: unknown[] };
    expect(listed.links).toEqual([]);
  });

  it('a pending create whose code the server already holds for the same URL is synced (its answer was lost)', async () => {
    await makeElsewhere('https://example.com/lost', 'lost');
    await history.put(entry({ code: 'lost', customCode: true, originalUrl: 'https://example.com/lost' }));
    const report = await mergeChanges(history, SERVER, [
      {
        kind: 'link',
        code: 'lost',
        shortUrl: `${SERVER}/lost/`,
        originalUrl: 'https://example.com/lost',
        createdAt: Date.now(),
        expiresAt: Date.now() + 86_400_000,
        disabled: false,
        clicks: 2,
        updatedAt: Date.now(),
      },
    ]);
    expect(report.updated).toBe(1);
    expect(await byCode('lost')).toMatchObject({ status: 'synced', clicks: 2, attempts: 0 });
  });

  it('keeps a pending create when the server lists a deletion of its code', async () => {
    await history.put(entry({ code: 'again' }));
    await mergeChanges(history, SERVER, [{ kind: 'deleted', code: 'again', updatedAt: Date.now() }]);
    expect(await byCode('again')).toMatchObject({ status: 'pending' });
  });
});

describe('a revoked key', () => {
  it('is reported by the sync (for the popup) and kept in the sync status (for the options page)', async () => {
    await makeElsewhere('https://example.com/k', 'k');
    await api.sync();
    await remote.revokeKey(1, Date.now());
    const report = await api.sync();
    expect(report.keyRefused).toBe(true);
    expect(report.pullError).toMatch(/key/i);
    expect(await syncStatusFor(SERVER)).toMatchObject({ keyRefused: true });
    // The history is left as it was: nothing is removed because the server refused to list it.
    expect(await byCode('k')).toBeDefined();
  });

  it('refusing a shorten is kept for the options page at once, with no sync needed', async () => {
    await remote.revokeKey(1, Date.now());
    await expect(api.shorten({ url: 'https://example.com/refused' })).rejects.toMatchObject({ status: 401 });
    expect(await syncStatusFor(SERVER, key)).toMatchObject({ keyRefused: true });
  });

  it('stays said through a pull begun before it, a server that cannot be reached, until a later pull succeeds', async () => {
    const access = { server: SERVER, apiKey: key };
    const begun = Date.now();
    await recordKeyRefused(SERVER, key, 'refused', begun + 1000);
    // This pull's requests may have gone before the key was revoked: its success proves nothing.
    expect((await pushAndPull(access, history, begun)).keyRefused).toBeUndefined();
    expect(await syncStatusFor(SERVER, key)).toMatchObject({ keyRefused: true });
    server.use(serverDown);
    await pushAndPull(access, history, begun + 2000);
    expect(await syncStatusFor(SERVER, key)).toMatchObject({ keyRefused: true });
    server.use(linkletServer(remote));
    await pushAndPull(access, history, begun + 3000);
    expect((await syncStatusFor(SERVER, key)).keyRefused).toBeFalsy();
  });

  it('is told by Test connection, which otherwise names the owner', async () => {
    expect(await whoAmI({ server: SERVER, apiKey: key })).toEqual({ name: 'alice', admin: false });
    await remote.revokeKey(1, Date.now());
    await expect(whoAmI({ server: SERVER, apiKey: key })).rejects.toMatchObject({ name: 'ApiError', status: 401 });
  });
});

describe('another key', () => {
  it('lists everything again: the old key’s changed_since could skip the new owner’s older links', async () => {
    await makeElsewhere('https://example.com/alice', 'alice1');
    await api.sync();
    const bob = generateApiKey();
    await remote.createKey('bob', await hashApiKey(bob), Date.now());
    await settingsItem.setValue({ ...DEFAULT_SETTINGS, serverUrl: SERVER, apiKey: bob });
    requests.length = 0;
    await api.sync();
    const pull = requests.find((r) => r.url.includes('/api/v1/links'));
    expect(pull?.url).not.toContain('changed_since');
  });
});

describe('a link the key does not own', () => {
  it('keeps a link made before the key when Disable is refused, and says why', async () => {
    await settingsItem.setValue({ ...DEFAULT_SETTINGS, serverUrl: SERVER });
    const before = await api.shorten({ url: 'https://example.com/nobodys', code: 'nobodys' });
    await settingsItem.setValue({ ...DEFAULT_SETTINGS, serverUrl: SERVER, apiKey: key });
    await api.setDisabled(before.id, true);
    const kept = await byCode('nobodys');
    expect(kept).toMatchObject({ status: 'synced', message: expect.stringContaining('among yours') });
    expect(kept?.queued).toBeUndefined();
  });
});
