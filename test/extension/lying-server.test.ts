import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, UnreachableError } from '../../client/api-errors.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createLocalBackend } from '../../extension/backend/create-local-backend.js';
import { localBase, routeToHandler } from '../../extension/backend/local-backend.js';
import type { History } from '../../extension/history/history.js';
import { probeServer } from '../../extension/server/probe-server.js';
import { shortenVia } from '../../extension/server/shorten-via.js';
import { shortenLink } from '../../extension/service/shorten-link.js';
import { DEFAULT_SETTINGS, settingsItem } from '../../extension/settings.js';
import { syncPending } from '../../extension/sync/push-pending.js';
import { createSyncScheduler } from '../../extension/sync/sync-scheduler.js';
import { entry, freshHistory } from './helpers.js';
import { type LyingServer, neverAnswer, stallBody, startLyingServer, succeedWith } from './lying-server.js';

// A real companion server on loopback that lies, as a hostile server (or anyone on a plain-http
// path to one) could: the extension must refuse what it is told rather than store, copy or open it.

let liar: LyingServer;
beforeAll(async () => {
  liar = await startLyingServer();
});
afterAll(() => liar.close());

let history: History;
let dispose: () => Promise<void>;
beforeEach(async () => {
  liar.received.length = 0;
  ({ history, dispose } = freshHistory());
  return () => dispose();
});

const input = { url: 'https://example.com/page', expire: '1week' as const };
const ask = (code?: string) => shortenVia(fetch, liar.url, { ...input, code });

describe('a reply the extension refuses', () => {
  it.each([
    ['a data: short_url', () => ({ short_url: 'data:text/html,<script>alert(1)</script>' }), 'short_url'],
    ['a javascript: short_url', () => ({ short_url: 'javascript:alert(1)' }), 'short_url'],
    ['a file: short_url', () => ({ short_url: 'file:///etc/passwd' }), 'short_url'],
    ['a chrome: short_url', () => ({ short_url: 'chrome://settings/' }), 'short_url'],
    ['a short_url on another host', () => ({ short_url: 'https://evil.example/abc/' }), 'short_url'],
    [
      'a short_url with the server as credentials',
      (_: unknown, base: string) => ({ short_url: `${base}@evil.example/abc/` }),
      'short_url',
    ],
    ['the bare server as short_url', (_: unknown, base: string) => ({ short_url: `${base}/` }), 'short_url'],
    ['a short_url that is not text', () => ({ short_url: 42 }), 'short_url'],
    ['another original_url', () => ({ original_url: 'https://phish.example/' }), 'original_url'],
    ['a code that is not text', () => ({ code: ['abc'] }), 'code'],
    ['a code no backend would make', () => ({ code: 'a/b?<x>' }), 'code'],
    ['a reserved code', () => ({ code: 'api' }), 'code'],
    ['expiration_date "garbage"', () => ({ expiration_date: 'garbage' }), 'expiration_date'],
    ['no expiration_date', () => ({ expiration_date: undefined }), 'expiration_date'],
    ['a date no Date can hold', () => ({ expiration_date: '+275761-01-01T00:00:00.000Z' }), 'expiration_date'],
  ])('refuses %s, naming the field', async (_, lie, field) => {
    liar.behave(succeedWith(lie, liar.url));
    const error = await ask().catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(new RegExp(`^The server's answer was refused: its ${field} `));
  });

  it('refuses a code other than the custom code asked for, and accepts another spelling of it', async () => {
    liar.behave(succeedWith(() => ({ code: 'other', short_url: `${liar.url}/other/` }), liar.url));
    await expect(ask('mine')).rejects.toThrow(/its code \("other"\) .* \('mine'\)/);
    liar.behave(succeedWith(() => ({ code: 'Mine', short_url: `${liar.url}/Mine/` }), liar.url));
    await expect(ask('mine')).resolves.toMatchObject({ code: 'Mine' });
  });

  it('shortens a long lying value in its message without splitting a character', async () => {
    // The opening quote and 75 ASCII characters put an emoji's two halves at the cut (units 76, 77).
    const lie = `https://phish.example/${'a'.repeat(53)}${'😀'.repeat(40)}`;
    liar.behave(succeedWith(() => ({ original_url: lie }), liar.url));
    const error = await ask().catch((e) => e);
    const shown = /its original_url \((.*)\) is not/.exec(error.message)?.[1] ?? '';
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(78);
    // UTF-8 has no form for half a pair: a split character would come back as U+FFFD.
    expect(new TextDecoder().decode(new TextEncoder().encode(shown))).toBe(shown);
    expect(lie.startsWith(JSON.parse(`${shown.slice(0, -1)}"`))).toBe(true);
  });

  it('tells the user to match the options to BASE_URL when short URLs name another address', async () => {
    liar.behave(succeedWith(() => ({ short_url: 'http://localhost:1/abc/' }), liar.url));
    await expect(ask()).rejects.toThrow(/set the options to the BASE_URL/);
  });

  it('accepts an honest reply, Hangul and a path prefix included', async () => {
    const base = `${liar.url}/s`;
    liar.behave(succeedWith((sent) => ({ short_url: `${base}/${sent.custom_code}/` }), base));
    const link = await shortenVia(fetch, base, { ...input, code: '한글' });
    expect(link).toEqual({
      shortUrl: `${base}/한글/`,
      originalUrl: input.url,
      code: '한글',
      expiresAt: Date.UTC(2026, 11, 1),
    });
  });

  it('keeps nothing in the history when the popup, menu or shortcut gets a lying reply', async () => {
    liar.behave(succeedWith(() => ({ short_url: 'data:text/html,hi' }), liar.url));
    const handle = createLocalBackend(createMemoryLinkStore());
    const made = shortenLink(input, {
      settings: { ...DEFAULT_SETTINGS, serverUrl: liar.url },
      history,
      localFetch: routeToHandler(handle, localBase()),
      localBase: localBase(),
    });
    await expect(made).rejects.toThrow(/short_url/);
    expect(await history.list()).toEqual([]);
  });

  it('marks a pending link refused when the sync gets a lying reply, never synced with its URL', async () => {
    liar.behave(succeedWith(() => ({ short_url: 'file:///etc/passwd' }), liar.url));
    await history.put(entry({ server: liar.url, shortUrl: `${liar.url}/abc2345/` }));
    expect(await syncPending({ history, server: liar.url }, { force: true })).toMatchObject({ failed: 1 });
    const [kept] = await history.list();
    expect(kept).toMatchObject({ status: 'failed', shortUrl: `${liar.url}/abc2345/` });
    expect(kept?.message).toMatch(/short_url/);
  });
});

describe('a server that does not answer', () => {
  it('times out a request with no answer, and says so', async () => {
    liar.behave(neverAnswer);
    const started = Date.now();
    const error = await shortenVia(fetch, liar.url, input, { timeoutMs: 300 }).catch((e) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error.message).toBe(
      `Could not reach ${liar.url}: it did not answer in time; check that the server is running, then try again.`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('times out an answer whose body never comes', async () => {
    liar.behave(stallBody);
    await expect(shortenVia(fetch, liar.url, input, { timeoutMs: 300 })).rejects.toBeInstanceOf(UnreachableError);
  });

  it('keeps the link pending (reserved locally) instead of leaving the popup on "Shortening…"', async () => {
    liar.behave(neverAnswer);
    const handle = createLocalBackend(createMemoryLinkStore());
    const made = await shortenLink(input, {
      settings: { ...DEFAULT_SETTINGS, serverUrl: liar.url },
      history,
      localFetch: routeToHandler(handle, localBase()),
      localBase: localBase(),
      timeoutMs: 300,
    });
    expect(made).toMatchObject({ status: 'pending', shortUrl: `${liar.url}/${made.code}/` });
  });

  it('lets a stuck sync end, so the next one runs and pushes once the server answers', async () => {
    await settingsItem.setValue({ ...DEFAULT_SETTINGS, serverUrl: liar.url });
    await history.put(entry({ server: liar.url, shortUrl: `${liar.url}/abc2345/`, code: 'abc2345' }));
    const scheduler = createSyncScheduler(history, { timeoutMs: 300 });
    liar.behave(neverAnswer);
    const stuck = scheduler.run({ force: true });
    const next = scheduler.run({ force: true });
    // The server comes back while the first run still waits on it.
    await expect.poll(() => liar.received.length).toBe(1);
    liar.behave(succeedWith(() => ({}), liar.url));
    expect(await stuck).toMatchObject({ synced: 0, pending: 1 });
    expect(await next).toMatchObject({ synced: 1, pending: 0 });
    expect((await history.list())[0]).toMatchObject({ status: 'synced', shortUrl: `${liar.url}/abc2345/` });
  });
});

describe('"Test connection" against a server that does not answer', () => {
  it('says so after the deadline instead of "Testing…" for ever', async () => {
    liar.behave(neverAnswer);
    expect(await probeServer(fetch, liar.url, 300)).toEqual({
      ok: false,
      reason: 'unreachable: no answer within 0.3 s; check that the server is running',
    });
    liar.behave(stallBody);
    expect(await probeServer(fetch, liar.url, 300)).toMatchObject({ ok: false, reason: /^unreachable: no answer/ });
  });
});

describe('an error envelope from a hostile server', () => {
  it('keeps at most 500 characters of its message', async () => {
    liar.behave((_, response) => {
      response.writeHead(400, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ status: 'error', message: 'x'.repeat(1_000_000) }));
    });
    const error = await ask().catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toHaveLength(500);
  });
});
