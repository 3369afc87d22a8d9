import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../client/api-errors.js';
import { resolveCode } from '../../core/redirect/resolve.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createLocalBackend } from '../../extension/backend/create-local-backend.js';
import { localBase, openPageBase, routeToHandler } from '../../extension/backend/local-backend.js';
import type { History } from '../../extension/history/history.js';
import { type ShortenDeps, shortenLink } from '../../extension/service/shorten-link.js';
import { DEFAULT_SETTINGS, type Settings } from '../../extension/settings.js';
import { backoffDelay } from '../../extension/sync/push-pending.js';
import { errorReply, freshHistory, linkletServer, NOW, SERVER, serverDown, useMockServer } from './helpers.js';

const { server, requests } = useMockServer();
const DAY = 86_400_000;

let history: History;
let dispose: () => Promise<void>;
let localStore: LinkStore;
let serverStore: LinkStore;
let ids: number;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  ({ history, dispose } = freshHistory());
  localStore = createMemoryLinkStore();
  serverStore = createMemoryLinkStore();
  ids = 0;
});
afterEach(async () => {
  vi.useRealTimers();
  await dispose();
});

/** The popup's and background's wiring: the real core handler as the bundled backend. */
function deps(settings: Partial<Settings> = {}): ShortenDeps {
  const handle = createLocalBackend(localStore);
  return {
    settings: { ...DEFAULT_SETTINGS, ...settings },
    history,
    localBase: localBase(),
    // Anything not for the extension origin must not reach the network from the local path.
    localFetch: routeToHandler(handle, localBase(), () => Promise.reject(new Error('left the extension'))),
    newId: () => `id-${++ids}`,
  };
}
const synced = { serverUrl: SERVER };

describe('shortenLink in local mode', () => {
  it('makes a local link on the bundled backend that opens through the extension page', async () => {
    const made = await shortenLink({ url: 'https://example.com/page', expire: '1week' }, deps());
    expect(made).toEqual({
      id: 'id-1',
      code: made.code,
      customCode: false,
      originalUrl: 'https://example.com/page',
      shortUrl: `${openPageBase()}/${made.code}/`,
      server: null,
      status: 'local',
      expire: '1week',
      createdAt: NOW,
      expiresAt: NOW + 7 * DAY,
      attempts: 0,
    });
    expect(made.shortUrl).toBe(`chrome-extension://test-extension-id/open.html#/${made.code}/`);
    expect(await history.get('id-1')).toEqual(made);
    const resolved = await resolveCode(made.code, localStore, NOW);
    expect(resolved).toMatchObject({ state: 'active', link: { originalUrl: 'https://example.com/page' } });
    expect(requests).toEqual([]);
  });

  it('passes a custom code and the expiry through', async () => {
    const made = await shortenLink({ url: 'https://example.com/x', code: '한글', expire: '24h' }, deps());
    expect(made).toMatchObject({ code: '한글', customCode: true, expire: '24h', expiresAt: NOW + DAY });
    expect(made.shortUrl).toBe(`${openPageBase()}/한글/`);
  });

  it.each([
    ['a code another local link holds', { url: 'https://example.com/2', code: 'taken' }, 409, /taken.*already in use/],
    ['a URL that is not http(s)', { url: 'ftp://example.com' }, 400, /original_url/],
    ['a reserved code', { url: 'https://example.com', code: 'api' }, 400, /reserved/],
  ])('rejects %s with the backend message and records nothing', async (_, input, status, message) => {
    await shortenLink({ url: 'https://example.com/1', code: 'taken', expire: '24h' }, deps());
    const error = await shortenLink({ expire: '24h', ...input }, deps()).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(status);
    expect(error.message).toMatch(message);
    expect(await history.list()).toHaveLength(1);
  });
});

describe('shortenLink with a companion server', () => {
  it('makes the link on the server and records it as synced', async () => {
    server.use(linkletServer(serverStore));
    const made = await shortenLink({ url: 'https://example.com/s', expire: '48h' }, deps(synced));
    expect(made).toMatchObject({
      status: 'synced',
      server: SERVER,
      shortUrl: `${SERVER}/${made.code}/`,
      expiresAt: NOW + 2 * DAY,
      attempts: 0,
    });
    expect(made).not.toHaveProperty('nextAttemptAt');
    expect(await history.get(made.id)).toEqual(made);
    expect((await serverStore.findByCodeKey(made.code))?.originalUrl).toBe('https://example.com/s');
    // The bundled backend was not involved.
    expect(await localStore.findByCodeKey(made.code)).toBeUndefined();
  });

  it('sends the custom code and expiry to the server', async () => {
    server.use(linkletServer(serverStore));
    const made = await shortenLink({ url: 'https://example.com/c', code: 'Promo', expire: '1month' }, deps(synced));
    expect(requests.map((r) => r.body)).toEqual([
      { original_url: 'https://example.com/c', custom_code: 'Promo', expire_duration: '1month' },
    ]);
    expect(made).toMatchObject({ code: 'Promo', customCode: true, expire: '1month', shortUrl: `${SERVER}/Promo/` });
    expect(made.expiresAt).toBe(Date.UTC(2026, 5, 20, 9, 30, 0));
  });

  it('keeps the link pending with a locally reserved code while the server is unreachable', async () => {
    server.use(serverDown);
    const made = await shortenLink({ url: 'https://example.com/p', expire: '1week' }, deps(synced));
    expect(made).toMatchObject({
      status: 'pending',
      server: SERVER,
      shortUrl: `${SERVER}/${made.code}/`,
      attempts: 1,
      nextAttemptAt: NOW + backoffDelay(1),
      expiresAt: NOW + 7 * DAY,
    });
    expect(made.code).toMatch(/^[23456789abcdefghjkmnpqrstuvwxyz]{7}$/);
    expect(made.message).toMatch(/^Could not reach https:\/\/sho\.rt/);
    expect(await localStore.findByCodeKey(made.code)).toMatchObject({ originalUrl: 'https://example.com/p' });
    expect(await history.pending()).toEqual([made]);
  });

  it('keeps the custom code of a pending link', async () => {
    server.use(serverDown);
    const made = await shortenLink({ url: 'https://example.com/p', code: 'Mine', expire: '24h' }, deps(synced));
    expect(made).toMatchObject({ status: 'pending', code: 'Mine', customCode: true, shortUrl: `${SERVER}/Mine/` });
  });

  it.each([500, 502, 503, 429])('keeps the link pending when the server answers %i', async (status) => {
    server.use(http.post(`${SERVER}/api/v1/shorten`, () => errorReply(status, 'Try again later.')));
    const made = await shortenLink({ url: 'https://example.com/p', expire: '24h' }, deps(synced));
    expect(made).toMatchObject({ status: 'pending', attempts: 1, message: 'Try again later.' });
  });

  it('rejects with the server message when the server holds the custom code', async () => {
    const message = "custom_code 'Promo' is already in use; choose another code.";
    server.use(http.post(`${SERVER}/api/v1/shorten`, () => errorReply(409, message)));
    const error = await shortenLink({ url: 'https://example.com', code: 'Promo', expire: '24h' }, deps(synced)).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message });
    expect(await history.list()).toEqual([]);
    expect(await localStore.findByCodeKey('promo')).toBeUndefined();
  });

  it('rejects what the server refuses (400) without falling back to the bundled backend', async () => {
    server.use(linkletServer(serverStore));
    const error = await shortenLink({ url: `${SERVER}/loop`, expire: '24h' }, deps(synced)).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/original_url/);
    expect(await history.list()).toEqual([]);
  });

  it('rejects a non-Linklet answer instead of leaving a pending link', async () => {
    server.use(http.post(`${SERVER}/api/v1/shorten`, () => HttpResponse.text('Not here', { status: 404 })));
    const error = await shortenLink({ url: 'https://example.com', expire: '24h' }, deps(synced)).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toMatch(/is this a Linklet server\?/);
  });
});

describe('shortenLink with reuse', () => {
  it('returns the same entry for the same URL in local mode', async () => {
    const first = await shortenLink({ url: 'https://example.com/r', expire: '24h' }, deps(), true);
    const again = await shortenLink({ url: 'https://example.com/r', expire: '24h' }, deps(), true);
    expect(again).toEqual(first);
    expect(await history.list()).toHaveLength(1);
  });

  it('returns the same entry for the same URL in synced mode, even while pending', async () => {
    server.use(serverDown);
    const first = await shortenLink({ url: 'https://example.com/r', expire: '24h' }, deps(synced), true);
    const again = await shortenLink({ url: 'https://example.com/r', expire: '24h' }, deps(synced), true);
    expect(again).toEqual(first);
    expect(requests).toHaveLength(1);
  });

  it('makes a new link for another URL, a new mode, without reuse, or once the old one expired', async () => {
    server.use(linkletServer(serverStore));
    const first = await shortenLink({ url: 'https://example.com/r', expire: '24h' }, deps(), true);
    const others = [
      await shortenLink({ url: 'https://example.com/r2', expire: '24h' }, deps(), true),
      await shortenLink({ url: 'https://example.com/r', expire: '24h' }, deps(synced), true),
      await shortenLink({ url: 'https://example.com/r', expire: '24h' }, deps(), false),
    ];
    for (const other of others) expect(other.id).not.toBe(first.id);
    vi.setSystemTime(first.expiresAt);
    const later = await shortenLink({ url: 'https://example.com/r', expire: '24h' }, deps(), true);
    expect([first.id, ...others.map((o) => o.id)]).not.toContain(later.id);
  });

  it('does not reuse for, or reuse, a link with a custom code', async () => {
    const custom = await shortenLink({ url: 'https://example.com/r', code: 'mine', expire: '24h' }, deps(), true);
    const generated = await shortenLink({ url: 'https://example.com/r', expire: '24h' }, deps(), true);
    expect(generated.id).not.toBe(custom.id);
    const second = await shortenLink({ url: 'https://example.com/r', code: 'mine2', expire: '24h' }, deps(), true);
    expect(second).toMatchObject({ code: 'mine2' });
    expect(second.id).not.toBe(generated.id);
  });

  it('does not reuse a conflict or a failed link', async () => {
    const first = await shortenLink({ url: 'https://example.com/r', expire: '24h' }, deps(), true);
    await history.put({ ...first, status: 'failed' });
    const again = await shortenLink({ url: 'https://example.com/r', expire: '24h' }, deps(), true);
    expect(again.id).not.toBe(first.id);
  });
});
