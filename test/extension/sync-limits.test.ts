import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_PAGE_SIZE } from '../../core/management/links/list-params.js';
import type { History } from '../../extension/history/history.js';
import { syncProblemText } from '../../extension/pages/sync-problem.js';
import type { RemoteLink } from '../../extension/server/remote-link.js';
import { mergeChanges } from '../../extension/sync/pull-links.js';
import { MAX_ANSWER_BYTES, MAX_HISTORY_LINKS, MAX_PAGE_ITEMS } from '../../extension/sync/sync-limits.js';
import { syncStatusFor } from '../../extension/sync/sync-status.js';
import { pushAndPull } from '../../extension/sync/two-way-sync.js';
import { entry, freshHistory, NOW, SERVER, useMockServer } from './helpers.js';

// A server that hands out more than any Linklet server would: the pull refuses the answer, says
// so in the sync status (which the options page and popup show) and logs why.

const { server, requests } = useMockServer();
const access = { server: SERVER, apiKey: 'lk_test_key_0123456789' };

let history: History;
let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  const fresh = freshHistory();
  history = fresh.history;
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  return fresh.dispose;
});
afterEach(() => warn.mockRestore());

const iso = (epochMs: number) => new Date(epochMs).toISOString();
const item = (code: string) => ({
  code,
  short_url: `${SERVER}/${code}/`,
  original_url: `https://example.com/${code}`,
  created_at: iso(NOW - 60_000),
  expiration_date: iso(NOW + 7 * 86_400_000),
  status: 'active',
  clicks: 0,
  updated_at: iso(NOW - 60_000),
});
const logged = () => warn.mock.calls.map((call: unknown[]) => String(call[0])).join('\n');

describe('the bounds', () => {
  it('are what a real Linklet server stays within: its largest page, and a history that holds 1,000 such pages', () => {
    expect(MAX_PAGE_ITEMS).toBe(MAX_PAGE_SIZE);
    expect(MAX_HISTORY_LINKS).toBe(1000 * MAX_PAGE_SIZE);
  });
});

describe('a page with more items than a Linklet server lists', () => {
  it('is refused whole (20,000 items in one answer), and the sync status says so', async () => {
    const links = Array.from({ length: 20_000 }, (_, i) => item(`c${i}`));
    server.use(
      http.get(`${SERVER}/api/v1/links`, () =>
        HttpResponse.json({ status: 'success', message: 'Many.', data: { links, next_cursor: 'more' } }),
      ),
    );
    const report = await pushAndPull(access, history, NOW);
    expect(await history.list()).toEqual([]);
    expect(report.limit).toEqual({ kind: 'page-items', bound: MAX_PAGE_ITEMS });
    expect(await syncStatusFor(SERVER)).toMatchObject({ limit: { kind: 'page-items', bound: MAX_PAGE_ITEMS } });
    expect(logged()).toMatch(/20000 links in one page.*at most 100/);
    expect(syncProblemText(await syncStatusFor(SERVER))).toMatch(/^The server listed more than 100 links in one page/);
    expect(requests.filter((r) => r.url.includes('/api/v1/links'))).toHaveLength(1);
  });
});

describe('an answer larger than a Linklet server sends', () => {
  it('stops reading at the bound, refuses the answer and says so', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1 << 20));
    let sent = 0;
    // A valid start, then padding without end: only a bound on the bytes read stops it.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"status":"success","pad":"'));
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    server.use(
      http.get(
        `${SERVER}/api/v1/links`,
        () => new HttpResponse(body, { headers: { 'Content-Type': 'application/json' } }),
      ),
    );
    const report = await pushAndPull(access, history, NOW);
    expect(report.limit).toEqual({ kind: 'answer-bytes', bound: MAX_ANSWER_BYTES });
    expect(sent).toBeLessThan(MAX_ANSWER_BYTES + 4 * chunk.length);
    expect(logged()).toMatch(/answer was refused: it is larger than/);
    expect(syncProblemText(await syncStatusFor(SERVER))).toMatch(/^The server answered with more than 25 MB/);
  });

  it('is refused from its Content-Length before its body is read', async () => {
    server.use(
      http.get(
        `${SERVER}/api/v1/links`,
        () =>
          new HttpResponse('{"status":"success","data":{"links":[],"next_cursor":null}}', {
            headers: { 'Content-Type': 'application/json', 'Content-Length': String(MAX_ANSWER_BYTES + 1) },
          }),
      ),
    );
    expect((await pushAndPull(access, history, NOW)).limit).toEqual({
      kind: 'answer-bytes',
      bound: MAX_ANSWER_BYTES,
    });
  });
});

describe('a history at its bound', () => {
  const remote = (code: string): RemoteLink => ({
    kind: 'link',
    code,
    shortUrl: `${SERVER}/${code}/`,
    originalUrl: `https://example.com/${code}`,
    createdAt: NOW,
    expiresAt: NOW + 86_400_000,
    disabled: false,
    clicks: 4,
    updatedAt: NOW,
  });

  it('adds no more links, still updates the ones it has, and counts what it left out', async () => {
    await history.put(entry({ code: 'known', status: 'synced' }));
    await history.put(entry({ code: 'other', server: null, status: 'local' }));
    const report = await mergeChanges(history, SERVER, [remote('known'), remote('new1'), remote('new2')], undefined, 3);
    expect(report).toEqual({ added: 1, updated: 1, removed: 0, notAdded: 1 });
    expect(await history.list()).toHaveLength(3);
  });

  it('makes the pull say so, and keeps changed_since so the links come once there is room', async () => {
    server.use(
      http.get(`${SERVER}/api/v1/links`, () =>
        HttpResponse.json({
          status: 'success',
          message: '3.',
          data: { links: ['a1', 'a2', 'a3'].map(item), next_cursor: null },
        }),
      ),
    );
    const report = await pushAndPull(access, history, NOW, { maxLinks: 2 });
    expect(report.limit).toEqual({ kind: 'history', bound: 2 });
    expect(await history.list()).toHaveLength(2);
    expect((await syncStatusFor(SERVER)).since).toBeUndefined();
    expect(logged()).toMatch(/history holds at most 2 links/);
    expect(syncProblemText(report)).toMatch(/^The history holds at most 2 links/);
  });

  it('stops asking for pages once the history could not hold more, and says so', async () => {
    let page = 0;
    server.use(
      http.get(`${SERVER}/api/v1/links`, () => {
        page++;
        const links = [item(`p${page}a`), item(`p${page}b`)];
        return HttpResponse.json({ status: 'success', message: '2.', data: { links, next_cursor: `c${page}` } });
      }),
    );
    const report = await pushAndPull(access, history, NOW, { maxLinks: 4 });
    expect(page).toBe(2);
    expect(report.limit).toEqual({ kind: 'history', bound: 4 });
  });
});
