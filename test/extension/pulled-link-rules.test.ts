import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { History } from '../../extension/history/history.js';
import { syncProblemText } from '../../extension/pages/sync-problem.js';
import { syncStatusFor, syncStatusItem } from '../../extension/sync/sync-status.js';
import { pushAndPull } from '../../extension/sync/two-way-sync.js';
import { freshHistory, NOW, SERVER, useMockServer } from './helpers.js';

// A server (or anyone on a plain-http path to one) that lists links no Linklet server would
// make: each is left out with a logged reason, and the honest ones next to it still sync.

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

/** An item as a real server lists it, made a minute before `NOW`, with `lie` laid over it. */
function item(code: string, lie: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    code,
    short_url: `${SERVER}/${code}/`,
    original_url: `https://example.com/${code}`,
    created_at: iso(NOW - 60_000),
    expiration_date: iso(NOW + 7 * 86_400_000),
    status: 'active',
    clicks: 0,
    updated_at: iso(NOW - 60_000),
    ...lie,
  };
}

function listing(links: unknown[]) {
  return http.get(`${SERVER}/api/v1/links`, () =>
    HttpResponse.json({ status: 'success', message: `${links.length} links.`, data: { links, next_cursor: null } }),
  );
}

const codes = async () => (await history.list()).map((entry) => entry.code).sort();
const logged = () => warn.mock.calls.map((call: unknown[]) => String(call[0])).join('\n');

describe('a pulled link that breaks a rule of the server', () => {
  it.each([
    ['a target with a right-to-left override', { original_url: 'https://example.com/\u202Egnp.exe' }, /original_url/],
    ['a 500 KB target', { original_url: `https://example.com/${'a'.repeat(500_000)}` }, /original_url .*65536/],
    ['a target with user credentials', { original_url: 'https://user@example.com/' }, /credentials/],
    ['a target with surrounding spaces', { original_url: ' https://example.com/ ' }, /original_url/],
    ['a target on the server itself', { original_url: `${SERVER}/loop/` }, /loop/],
    ['a short URL naming another code', { short_url: `${SERVER}/other/` }, /short_url/],
    ['a code in a form the server never stores (NFD)', { code: '\u1100\u1161', short_url: `${SERVER}/가/` }, /code/],
    ['a reserved code', { code: 'api', short_url: `${SERVER}/api/` }, /code/],
    ['an updated_at in year 9999', { updated_at: '9999-12-31T23:59:59.000Z' }, /updated_at .*future/],
    ['a created_at in the future', { created_at: iso(NOW + 86_400_000) }, /created_at .*future/],
  ])('leaves out %s, logs why, and still takes the others', async (_, lie, reason) => {
    server.use(listing([item('good1'), item('bad', lie), item('good2')]));
    const report = await pushAndPull(access, history, NOW);
    expect(await codes()).toEqual(['good1', 'good2']);
    expect(report.pulled).toMatchObject({ added: 2 });
    expect(report.refusedItems).toBe(1);
    expect(logged()).toMatch(reason);
    const status = await syncStatusFor(SERVER);
    expect(status).toMatchObject({ refusedItems: 1 });
    expect(syncProblemText(status)).toMatch(/^1 link from the server was left out/);
  });

  it('leaves out a deletion with a date in the future', async () => {
    server.use(listing([{ code: 'gone', deleted: true, updated_at: '9999-01-01T00:00:00.000Z' }]));
    expect(await pushAndPull(access, history, NOW)).toMatchObject({ refusedItems: 1 });
  });

  it('takes a link made by a server whose clock runs a little ahead', async () => {
    server.use(listing([item('ahead', { created_at: iso(NOW + 60_000), updated_at: iso(NOW + 60_000) })]));
    await pushAndPull(access, history, NOW);
    expect(await codes()).toEqual(['ahead']);
  });
});

describe('changed_since', () => {
  it('never goes past now + skew, so a lying date cannot make later pulls skip everything', async () => {
    server.use(
      listing([item('good', { updated_at: iso(NOW - 1000) }), item('bad', { updated_at: '9999-12-31T23:59:59.000Z' })]),
    );
    await pushAndPull(access, history, NOW);
    expect((await syncStatusFor(SERVER)).since).toBe(iso(NOW - 1000));
    requests.length = 0;
    await pushAndPull(access, history, NOW + 60_000);
    const pull = new URL(requests.find((r) => r.url.includes('/api/v1/links'))?.url ?? '');
    expect(pull.searchParams.get('changed_since')).toBe(iso(NOW - 1000));
  });

  it('lists everything again when an older version kept a changed_since in the future', async () => {
    await syncStatusItem.setValue({
      server: SERVER,
      keyTail: access.apiKey.slice(-8),
      since: '9999-12-31T23:59:59.000Z',
    });
    server.use(listing([item('back')]));
    await pushAndPull(access, history, NOW);
    const pull = new URL(requests.find((r) => r.url.includes('/api/v1/links'))?.url ?? '');
    expect(pull.searchParams.has('changed_since')).toBe(false);
    expect(await codes()).toEqual(['back']);
  });
});
