import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/server-process.mjs';
import { usePostgresSchema } from './postgres-schema.js';
import { useServerProcesses } from './use-server-processes.js';
import { startReceiver } from './webhook-receiver.js';

const ADMIN = 'admin-key-for-webhook-tests';
const { start, freshDb, stopAll } = useServerProcesses('webhooks');
const { url: postgresUrl } = usePostgresSchema('linklet_webhooks');
const receivers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
const receiver = async () => {
  const made = await startReceiver();
  receivers.push(made);
  return made;
};

function call(server: RunningServer, method: string, path: string, key?: string, body?: unknown, headers = {}) {
  return fetch(`${server.origin}${path}`, {
    method,
    redirect: 'manual',
    headers: { ...(key ? { 'X-API-Key': key } : {}), 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
async function dataOf(response: Response, status: number) {
  expect(response.status).toBe(status);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}
const makeKey = async (server: RunningServer, name: string) =>
  (await dataOf(await call(server, 'POST', '/api/v1/keys', ADMIN, { name }), 201)).key as string;
const makeHook = async (server: RunningServer, key: string, url: string, events: string[]) =>
  (await dataOf(await call(server, 'POST', '/api/v1/webhooks', key, { url, events }), 201)) as {
    id: number;
    secret: string;
  };
const makeLink = async (server: RunningServer, key: string, code: string) =>
  dataOf(
    await call(server, 'POST', '/api/v1/shorten', key, {
      original_url: `https://example.com/${code}`,
      custom_code: code,
    }),
    201,
  );
const sqliteServer = (db: string) =>
  start({ DATABASE_URL: `sqlite:${db}`, API_KEY: ADMIN, BLOCK_PRIVATE_TARGETS: 'off' });

describe('webhooks from a real server process', () => {
  it('sends signed link.created and link.clicked within seconds, a click with what a visit keeps and no address', async () => {
    const hooks = await receiver();
    const server = await sqliteServer(freshDb());
    const alice = await makeKey(server, 'alice');
    const { secret } = await makeHook(server, alice, hooks.url, ['link.created', 'link.clicked']);
    await makeLink(server, alice, 'hello');
    await hooks.until((all) => all.length >= 1);
    const created = hooks.verified(hooks.received[0] as never, secret);
    expect(created.type).toBe('link.created');
    expect(created.data).toMatchObject({ code: 'hello', original_url: 'https://example.com/hello' });

    const visit = await call(server, 'GET', '/hello', undefined, undefined, {
      'User-Agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
      Referer: 'https://news.example.org/story?id=1',
      'X-Forwarded-For': '203.0.113.7',
    });
    expect(visit.status).toBe(302);
    const quiet = await call(server, 'GET', '/hello', undefined, undefined, {
      DNT: '1',
      Referer: 'https://secret.example/',
    });
    expect(quiet.status).toBe(302);
    // The two clicks come within about a second: in one delivery, or in two when a beat fell between.
    await hooks.until(
      (all) => all.slice(1).flatMap((one) => (JSON.parse(one.body).data.clicks as unknown[]) ?? []).length >= 2,
    );
    const deliveries = hooks.received.slice(1).map((one) => hooks.verified(one, secret));
    expect(new Set(deliveries.map((delivery) => delivery.type))).toEqual(new Set(['link.clicked']));
    const clicks = deliveries.flatMap((delivery) => (delivery.data as { clicks: Record<string, unknown>[] }).clicks);
    expect(clicks[0]).toMatchObject({
      code: 'hello',
      referrer: 'news.example.org',
      browser: 'Chrome',
      os: 'Linux',
      device: 'desktop',
      bot: false,
    });
    expect(Object.keys(clicks[1] ?? {}).sort()).toEqual(['clicked_at', 'code', 'short_url']);
    for (const one of hooks.received) {
      expect(one.body).not.toContain('127.0.0.1');
      expect(one.body).not.toContain('203.0.113.7');
      expect(one.headers['content-type']).toBe('application/json');
    }
    expect(new Set(hooks.received.map((one) => one.id)).size).toBe(hooks.received.length);
  }, 60_000);

  it('sends a failed delivery again under the same webhook-id, and shows both attempts', async () => {
    const hooks = await receiver();
    let refused = 0;
    hooks.answerWith(() => (refused++ === 0 ? 500 : 204));
    const server = await sqliteServer(freshDb());
    const alice = await makeKey(server, 'alice');
    const { id, secret } = await makeHook(server, alice, hooks.url, ['link.created']);
    await makeLink(server, alice, 'again');
    await hooks.until((all) => all.length >= 2);
    const [first, second] = hooks.received;
    expect(first?.status).toBe(500);
    expect(second?.status).toBe(204);
    expect(second?.id).toBe(first?.id);
    expect(second?.body).toBe(first?.body);
    expect(hooks.verified(second as never, secret).type).toBe('link.created');
    // The outcome is recorded shortly after the answer.
    let shown = await dataOf(await call(server, 'GET', `/api/v1/webhooks/${id}/deliveries`, alice), 200);
    for (let waited = 0; waited < 5000 && JSON.stringify(shown.deliveries).includes('pending'); waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      shown = await dataOf(await call(server, 'GET', `/api/v1/webhooks/${id}/deliveries`, alice), 200);
    }
    expect(shown.deliveries).toMatchObject([
      { id: first?.id, type: 'link.created', state: 'delivered', attempts: 2, last_status: 204, last_error: null },
    ]);
  }, 60_000);

  it('sends what was pending when the server stopped once it is back', async () => {
    const hooks = await receiver();
    hooks.answerWith(() => 503);
    const db = freshDb();
    const first = await sqliteServer(db);
    const alice = await makeKey(first, 'alice');
    const { secret } = await makeHook(first, alice, hooks.url, ['link.created']);
    await makeLink(first, alice, 'pending');
    await hooks.until((all) => all.length >= 1);
    await stopAll();
    hooks.answerWith(() => 204);
    await sqliteServer(db);
    await hooks.until((all) => all.some((one) => one.status === 204));
    const delivered = hooks.received.find((one) => one.status === 204);
    expect(delivered?.id).toBe(hooks.received[0]?.id);
    expect(hooks.verified(delivered as never, secret).data.code).toBe('pending');
  }, 60_000);

  it('delivers each event once with two instances on one PostgreSQL database', async () => {
    const hooks = await receiver();
    const env = { DATABASE_URL: postgresUrl(), API_KEY: ADMIN, BLOCK_PRIVATE_TARGETS: 'off' };
    const a = await start(env);
    const b = await start(env);
    const owner = await makeKey(a, 'shared');
    const { secret } = await makeHook(a, owner, hooks.url, ['link.created']);
    await new Promise((resolve) => setTimeout(resolve, 2500)); // b reads the new endpoint within 2 s
    const codes = Array.from({ length: 40 }, (_, i) => `pg${i}`);
    await Promise.all(codes.map((code, i) => makeLink(i % 2 === 0 ? a : b, owner, code)));
    await hooks.until((all) => all.length >= codes.length);
    await new Promise((resolve) => setTimeout(resolve, 3000)); // room for a duplicate to show
    const ids = hooks.received.map((one) => one.id);
    expect(ids.length).toBe(codes.length);
    expect(new Set(ids).size).toBe(codes.length);
    const told = hooks.received.map((one) => hooks.verified(one, secret).data.code as string);
    expect(told.sort()).toEqual([...codes].sort());
  }, 90_000);
});
