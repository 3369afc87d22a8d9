import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import type { History } from '../../extension/history/history.js';
import { serverShortUrl } from '../../extension/server/server-target.js';
import { backoffDelay, nextSyncAt, queueLocalLinks, syncPending } from '../../extension/sync/push-pending.js';
import { entry, errorReply, freshHistory, linkletServer, NOW, SERVER, serverDown, useMockServer } from './helpers.js';

const { server, requests } = useMockServer();
const OTHER = 'https://other.example';

let history: History;
let dispose: () => Promise<void>;
beforeEach(() => {
  ({ history, dispose } = freshHistory());
});
afterEach(() => dispose());

const sync = (at = NOW, force = false) => syncPending({ history, server: SERVER, now: () => at }, { force });

/** The server answers every shorten with this envelope (201), echoing the code it was sent. */
function acceptAll(base = SERVER, expiration = '2026-05-27T09:30:00.000Z') {
  return http.post(`${base}/api/v1/shorten`, async ({ request }) => {
    const body = (await request.json()) as { original_url: string; custom_code?: string };
    const code = body.custom_code ?? 'fresh77';
    return HttpResponse.json(
      {
        status: 'success',
        message: 'The URL was shortened.',
        data: {
          short_url: `${base}/${code}/`,
          original_url: body.original_url,
          code,
          expiration_date: expiration,
        },
      },
      { status: 201 },
    );
  });
}

describe('backoffDelay', () => {
  it.each([
    [0, 30_000],
    [1, 30_000],
    [2, 60_000],
    [3, 120_000],
    [4, 240_000],
    [5, 480_000],
    [6, 960_000],
    [7, 1_920_000],
    [8, 3_600_000],
    [9, 3_600_000],
    [50, 3_600_000],
  ])('after %i failed attempts waits %i ms', (attempts, delay) => {
    expect(backoffDelay(attempts)).toBe(delay);
  });
});

describe('serverShortUrl', () => {
  it.each([
    ['abc2345', `${SERVER}/abc2345/`],
    ['한글', `${SERVER}/한글/`],
    ['', ''],
  ])('%j → %j', (code, expected) => {
    expect(serverShortUrl(SERVER, code)).toBe(expected);
  });
});

describe('syncPending', () => {
  it('pushes a pending link with its code and marks it synced with what the server answered', async () => {
    server.use(acceptAll());
    const waiting = entry({
      code: 'Promo',
      customCode: true,
      expire: '24h',
      attempts: 3,
      nextAttemptAt: NOW - 1,
      message: 'Could not reach https://sho.rt: fetch failed',
    });
    await history.put(waiting);

    expect(await sync()).toEqual({ synced: 1, pending: 0, conflicts: 0, failed: 0 });

    expect(requests).toEqual([
      {
        method: 'POST',
        url: `${SERVER}/api/v1/shorten`,
        body: { original_url: waiting.originalUrl, custom_code: 'Promo', expire_duration: '24h' },
      },
    ]);
    const { nextAttemptAt: _n, message: _m, ...rest } = waiting;
    expect(await history.get(waiting.id)).toEqual({
      ...rest,
      status: 'synced',
      shortUrl: `${SERVER}/Promo/`,
      code: 'Promo',
      expiresAt: Date.parse('2026-05-27T09:30:00.000Z'),
      attempts: 0,
    });
  });

  it('resolves the pushed link on a real Linklet handler', async () => {
    const store = createMemoryLinkStore();
    server.use(linkletServer(store));
    await history.put(entry({ code: 'real1', customCode: true, originalUrl: 'https://example.com/real' }));
    await sync(Date.now());
    expect((await history.get('id-real1'))?.status).toBe('synced');
    expect((await store.findByCodeKey('real1'))?.originalUrl).toBe('https://example.com/real');
  });

  it('marks a custom code the server holds as a conflict with the server message', async () => {
    const message = "custom_code 'Promo' is already in use; choose another code.";
    server.use(http.post(`${SERVER}/api/v1/shorten`, () => errorReply(409, message)));
    await history.put(entry({ code: 'Promo', customCode: true }));

    expect(await sync()).toEqual({ synced: 0, pending: 0, conflicts: 1, failed: 0 });
    expect(await history.get('id-Promo')).toMatchObject({ status: 'conflict', message, code: 'Promo' });
    expect(requests).toHaveLength(1);
    expect(await history.pending()).toEqual([]);
  });

  it("counts a code the key's owner already holds for the same URL as synced, not as a conflict", async () => {
    const taken = "custom_code 'Mine' is already in use; choose another code.";
    const theirs = (url: string) => ({
      status: 'success',
      message: 'The link.',
      data: {
        code: 'Mine',
        short_url: `${SERVER}/Mine/`,
        original_url: url,
        created_at: new Date(NOW - 86_400_000).toISOString(),
        expiration_date: new Date(NOW + 3 * 86_400_000).toISOString(),
        updated_at: new Date(NOW - 86_400_000).toISOString(),
        status: 'active',
        clicks: 2,
      },
    });
    let owned = 'https://example.com/Mine';
    server.use(
      http.post(`${SERVER}/api/v1/shorten`, () => errorReply(409, taken)),
      http.get(`${SERVER}/api/v1/links/Mine`, () => HttpResponse.json(theirs(owned))),
    );
    const withKey = () => syncPending({ history, server: SERVER, apiKey: 'lk_owner', now: () => NOW });
    await history.put(entry({ code: 'Mine', customCode: true }));
    expect(await withKey()).toEqual({ synced: 1, pending: 0, conflicts: 0, failed: 0 });
    expect(await history.get('id-Mine')).toMatchObject({
      status: 'synced',
      shortUrl: `${SERVER}/Mine/`,
      expiresAt: NOW + 3 * 86_400_000,
    });

    // The owner's link with that code goes elsewhere: a conflict the user resolves, as before.
    owned = 'https://example.com/elsewhere';
    await history.put(entry({ code: 'Mine', customCode: true }));
    expect(await withKey()).toEqual({ synced: 0, pending: 0, conflicts: 1, failed: 0 });
    expect(await history.get('id-Mine')).toMatchObject({ status: 'conflict', message: taken });
  });

  it('asks for a fresh code when a generated code is taken on the server', async () => {
    server.use(
      http.post(`${SERVER}/api/v1/shorten`, async ({ request }) => {
        const body = (await request.clone().json()) as { custom_code?: string };
        if (body.custom_code) return errorReply(409, `custom_code '${body.custom_code}' is already in use`);
        return undefined;
      }),
      acceptAll(),
    );
    await history.put(entry({ code: 'gen2345', customCode: false }));

    expect(await sync()).toEqual({ synced: 1, pending: 0, conflicts: 0, failed: 0 });
    expect(requests.map((r) => r.body)).toEqual([
      { original_url: 'https://example.com/gen2345', custom_code: 'gen2345', expire_duration: '1week' },
      { original_url: 'https://example.com/gen2345', expire_duration: '1week' },
    ]);
    expect(await history.get('id-gen2345')).toMatchObject({
      status: 'synced',
      code: 'fresh77',
      shortUrl: `${SERVER}/fresh77/`,
      customCode: false,
      attempts: 0,
    });
  });

  it('drops the short URL of a generated code the server holds, even when asking for a fresh one fails', async () => {
    server.use(
      http.post(`${SERVER}/api/v1/shorten`, async ({ request }) => {
        const body = (await request.clone().json()) as { custom_code?: string };
        if (body.custom_code) return errorReply(409, `custom_code '${body.custom_code}' is already in use`);
        return HttpResponse.error();
      }),
    );
    await history.put(entry({ code: 'gen2345', customCode: false }));

    expect(await sync()).toEqual({ synced: 0, pending: 1, conflicts: 0, failed: 0 });
    expect(await history.get('id-gen2345')).toMatchObject({ status: 'pending', code: '', shortUrl: '', attempts: 1 });
  });

  it('keeps a link pending with backoff when the server cannot be reached, and spares the server the rest', async () => {
    server.use(serverDown);
    await history.put(entry({ id: 'first', code: 'first11', createdAt: NOW - 3000, attempts: 0 }));
    await history.put(entry({ id: 'second', code: 'second2', createdAt: NOW - 2000, attempts: 2 }));
    await history.put(
      entry({ id: 'third', code: 'third33', createdAt: NOW, attempts: 5, nextAttemptAt: NOW + 10 * 60_000 }),
    );

    expect(await sync()).toEqual({ synced: 0, pending: 3, conflicts: 0, failed: 0 });

    // One request to the dead server; none for the entries after the failure.
    expect(requests.map((r) => `${new URL(r.url).origin} ${r.body?.custom_code}`)).toEqual([`${SERVER} first11`]);
    const first = await history.get('first');
    expect(first).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: NOW + backoffDelay(1) });
    expect(first?.message).toMatch(/^Could not reach https:\/\/sho\.rt/);
    expect(await history.get('second')).toMatchObject({
      status: 'pending',
      attempts: 3,
      nextAttemptAt: NOW + backoffDelay(3),
      message: first?.message,
    });
    // Not yet due: left exactly as it was, its backoff is not pushed further out.
    expect(await history.get('third')).toMatchObject({
      status: 'pending',
      attempts: 5,
      nextAttemptAt: NOW + 10 * 60_000,
    });
  });

  it('pushes only to the configured server: a link pending for another one is left alone', async () => {
    // A history file, or a setting changed since, must not make the extension talk to a server
    // the user does not use now.
    server.use(acceptAll(), acceptAll(OTHER));
    const elsewhere = entry({ id: 'elsewhere', code: 'else333', server: OTHER, shortUrl: `${OTHER}/else333/` });
    await history.put(elsewhere);
    await history.put(entry({ id: 'here', code: 'here333' }));

    expect(await sync(NOW, true)).toEqual({ synced: 1, pending: 0, conflicts: 0, failed: 0 });
    expect(requests.map((r) => new URL(r.url).origin)).toEqual([SERVER]);
    expect(await history.get('elsewhere')).toEqual(elsewhere);

    // In local mode nothing is pushed anywhere.
    await history.put(entry({ id: 'later', code: 'later33' }));
    expect(await syncPending({ history, server: '' }, { force: true })).toEqual({
      synced: 0,
      pending: 0,
      conflicts: 0,
      failed: 0,
    });
    expect(requests).toHaveLength(1);
  });

  it('treats a 5xx answer like an unreachable server', async () => {
    server.use(http.post(`${SERVER}/api/v1/shorten`, () => errorReply(503, 'The link store is not answering.')));
    await history.put(entry({ attempts: 1 }));
    expect(await sync()).toEqual({ synced: 0, pending: 1, conflicts: 0, failed: 0 });
    expect(await history.get('id-abc2345')).toMatchObject({
      status: 'pending',
      attempts: 2,
      nextAttemptAt: NOW + backoffDelay(2),
      message: 'The link store is not answering.',
    });
  });

  it('leaves entries that are not due alone, unless forced', async () => {
    server.use(acceptAll());
    const later = entry({ attempts: 2, nextAttemptAt: NOW + 60_000, message: 'down' });
    await history.put(later);

    expect(await sync(NOW)).toEqual({ synced: 0, pending: 1, conflicts: 0, failed: 0 });
    expect(requests).toEqual([]);
    expect(await history.get(later.id)).toEqual(later);

    expect(await sync(NOW, true)).toEqual({ synced: 1, pending: 0, conflicts: 0, failed: 0 });
    expect(requests).toHaveLength(1);
    expect((await history.get(later.id))?.status).toBe('synced');
  });

  it('pushes an entry with no next attempt time at once', async () => {
    server.use(acceptAll());
    const { nextAttemptAt: _n, ...never } = entry();
    await history.put(never);
    expect((await sync()).synced).toBe(1);
  });

  it('syncs a link once the server is back and it is due', async () => {
    server.use(serverDown);
    await history.put(entry());
    await sync(NOW);
    const waiting = await history.get('id-abc2345');
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });

    server.resetHandlers(acceptAll());
    // Back, but the backoff has not elapsed: nothing is sent yet.
    await sync(NOW + backoffDelay(1) - 1);
    expect(requests).toHaveLength(1);
    expect((await history.get('id-abc2345'))?.status).toBe('pending');

    expect(await sync(NOW + backoffDelay(1))).toEqual({ synced: 1, pending: 0, conflicts: 0, failed: 0 });
    expect(requests).toHaveLength(2);
    const synced = await history.get('id-abc2345');
    expect(synced).toMatchObject({ status: 'synced', attempts: 0, shortUrl: `${SERVER}/abc2345/` });
    expect(synced).not.toHaveProperty('message');
    expect(synced).not.toHaveProperty('nextAttemptAt');
  });

  it.each([
    [400, 'original_url must not point at this server.'],
    [401, 'A valid API key is required; send it in the X-API-Key header.'],
    [413, 'The request body must be at most 16384 bytes.'],
  ])('marks a link the server refuses with %i as failed, with its message', async (status, message) => {
    server.use(http.post(`${SERVER}/api/v1/shorten`, () => errorReply(status, message)));
    await history.put(entry());
    expect(await sync()).toEqual({ synced: 0, pending: 0, conflicts: 0, failed: 1 });
    expect(await history.get('id-abc2345')).toMatchObject({ status: 'failed', message });
  });

  it('does not give up on the other links of a server after one is refused', async () => {
    server.use(
      http.post(`${SERVER}/api/v1/shorten`, async ({ request }) => {
        const body = (await request.clone().json()) as { custom_code?: string };
        return body.custom_code === 'bad2345' ? errorReply(400, 'nope') : undefined;
      }),
      acceptAll(),
    );
    await history.put(entry({ id: 'bad', code: 'bad2345', createdAt: NOW - 1 }));
    await history.put(entry({ id: 'good', code: 'good234', createdAt: NOW }));
    expect(await sync()).toEqual({ synced: 1, pending: 0, conflicts: 0, failed: 1 });
  });
});

describe('nextSyncAt', () => {
  it('is the earliest due time of the pending entries, or undefined when none waits', async () => {
    expect(await nextSyncAt(history, SERVER)).toBeUndefined();
    await history.put(entry({ id: 'a', code: 'a', nextAttemptAt: NOW + 5000 }));
    await history.put(entry({ id: 'b', code: 'b', nextAttemptAt: NOW + 1000 }));
    await history.put(entry({ id: 'c', code: 'c', status: 'conflict', nextAttemptAt: NOW }));
    // Waiting for another server: never pushed, so no alarm for it.
    await history.put(entry({ id: 'o', code: 'o', server: OTHER, nextAttemptAt: NOW }));
    expect(await nextSyncAt(history, SERVER)).toBe(NOW + 1000);
    expect(await nextSyncAt(history, '')).toBeUndefined();
    const { nextAttemptAt: _n, ...due } = entry({ id: 'd', code: 'd' });
    await history.put(due);
    expect(await nextSyncAt(history, SERVER)).toBe(0);
  });
});

describe('queueLocalLinks', () => {
  it('queues every active local link for the server with its code, and nothing else', async () => {
    const local = (id: string, overrides = {}) =>
      entry({
        id,
        code: id,
        server: null,
        status: 'local',
        shortUrl: `chrome-extension://x/open.html#/${id}/`,
        ...overrides,
      });
    await history.put(local('active1', { attempts: 0, nextAttemptAt: undefined }));
    await history.put(local('active2'));
    await history.put(local('expired', { expiresAt: NOW }));
    await history.put(entry({ id: 'synced', code: 'synced', status: 'synced' }));
    await history.put(entry({ id: 'conflict', code: 'conflict', status: 'conflict', server: OTHER }));

    expect(await queueLocalLinks(history, SERVER, NOW)).toBe(2);

    for (const id of ['active1', 'active2']) {
      expect(await history.get(id)).toMatchObject({
        status: 'pending',
        server: SERVER,
        code: id,
        shortUrl: `${SERVER}/${id}/`,
        attempts: 0,
        nextAttemptAt: NOW,
      });
    }
    expect(await history.get('expired')).toMatchObject({ status: 'local', server: null });
    expect(await history.get('synced')).toMatchObject({ status: 'synced' });
    expect(await history.get('conflict')).toMatchObject({ status: 'conflict', server: OTHER });

    // The next sync uploads them with their codes.
    server.use(acceptAll());
    expect(await sync(NOW)).toEqual({ synced: 2, pending: 0, conflicts: 0, failed: 0 });
    expect(requests.map((r) => r.body?.custom_code).sort()).toEqual(['active1', 'active2']);
  });
});
