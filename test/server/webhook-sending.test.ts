import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryWebhookStore } from '../../core/webhooks/memory-webhook-store.js';
import { generateWebhookSecret } from '../../core/webhooks/webhook-secret.js';
import { postDelivery } from '../../server/webhooks/post-delivery.js';
import { RETRY_DELAYS_MS, retryAtAfter } from '../../server/webhooks/retry-schedule.js';
import { signDelivery } from '../../server/webhooks/sign-delivery.js';
import { startWebhookSender } from '../../server/webhooks/webhook-sender.js';

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
/** A loopback HTTP server answering every request with `handle`; counts the requests. */
async function serve(handle: Parameters<typeof createServer>[1]) {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    handle?.(request, response);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, seen };
}
const post = (url: string, extra: Partial<Parameters<typeof postDelivery>[0]> = {}) =>
  postDelivery({ url, body: '{"type":"webhook.test"}', headers: {}, blockPrivateTargets: false, ...extra });

describe('signing', () => {
  it('signs as Standard Webhooks verifies: the standardwebhooks package accepts it', () => {
    const secret = generateWebhookSecret();
    const body = '{"type":"link.created","timestamp":"2026-11-29T12:00:00.000Z","data":{"code":"한글"}}';
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signDelivery(secret, 'msg_abc', timestamp, body);
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const headers = { 'webhook-id': 'msg_abc', 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('한글', 'other'), headers)).toThrow();
  });
});

describe('sending one delivery', () => {
  it('is a success on 2xx and a failure on any other status', async () => {
    const ok = await serve((_, response) => response.writeHead(202).end('taken'));
    expect(await post(`http://127.0.0.1:${ok.port}/in`)).toEqual({ ok: true, status: 202 });
    const down = await serve((_, response) => response.writeHead(503).end());
    expect(await post(`http://127.0.0.1:${down.port}/in`)).toEqual({ ok: false, status: 503, error: 'answered 503' });
  });

  it('follows no redirect', async () => {
    const target = await serve((_, response) => response.writeHead(204).end());
    const mover = await serve((_, response) =>
      response.writeHead(307, { Location: `http://127.0.0.1:${target.port}/moved` }).end(),
    );
    const result = await post(`http://127.0.0.1:${mover.port}/in`);
    expect(result).toMatchObject({ ok: false, status: 307 });
    expect(target.seen).toEqual([]);
  });

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    const silent = await serve(() => {});
    const result = await post(`http://127.0.0.1:${silent.port}/in`, { timeoutMs: 300 });
    expect(result).toEqual({ ok: false, error: 'no answer within 0.3 s' });
  });

  it('refuses a private host, as written or as resolved at the delivery, when private targets are blocked', async () => {
    const local = await serve((_, response) => response.writeHead(204).end());
    const literal = await post(`http://127.0.0.1:${local.port}/in`, { blockPrivateTargets: true });
    expect(literal).toMatchObject({ ok: false });
    expect(literal.ok || literal.error).toContain('private address (127.0.0.1)');
    // A name that pointed somewhere public when the endpoint was added now answers the loopback.
    const rebound = await post(`http://hooks.example:${local.port}/in`, {
      blockPrivateTargets: true,
      resolve: ((_name: string, _options: object, callback: (e: null, a: object[]) => void) =>
        callback(null, [{ address: '127.0.0.1', family: 4 }])) as never,
    });
    expect(rebound).toMatchObject({ ok: false });
    expect(rebound.ok || rebound.error).toContain('private address (127.0.0.1)');
    const metadata = await post('http://hooks.example/latest', {
      blockPrivateTargets: true,
      resolve: ((_name: string, _options: object, callback: (e: null, a: object[]) => void) =>
        callback(null, [{ address: '169.254.169.254', family: 4 }])) as never,
    });
    expect(metadata.ok || metadata.error).toContain('169.254.169.254');
    expect(local.seen).toEqual([]);
  });
});

describe('the retry schedule', () => {
  it('tries again within 10 s first, then backs off over more than a day', () => {
    expect(retryAtAfter(1, 0)).toBeLessThanOrEqual(10_000);
    const total = RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(86_400_000);
    expect(retryAtAfter(RETRY_DELAYS_MS.length + 1, 0)).toBeUndefined();
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++) {
      expect(RETRY_DELAYS_MS[i]).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i - 1] as number);
    }
  });
});

describe('the sender', () => {
  it('keeps at most its concurrency in flight and records each outcome with its next attempt', async () => {
    const store = createMemoryWebhookStore();
    const webhook = await store.createWebhook({
      ownerId: 1,
      url: 'https://hooks.example/in',
      events: ['link.created'],
      secret: generateWebhookSecret(),
      createdAt: 0,
    });
    const now = Date.now();
    await store.enqueueDeliveries(
      Array.from({ length: 10 }, (_, i) => ({
        id: `msg_${i}`,
        webhookId: webhook.id,
        type: 'link.created' as const,
        body: '{}',
        createdAt: now,
      })),
    );
    let inFlight = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const sender = startWebhookSender({
      store,
      blockPrivateTargets: true,
      logger: { warn: () => {} },
      concurrency: 3,
      post: async (options) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise<void>((resolve) => releases.push(resolve));
        inFlight--;
        return options.headers['webhook-id'] === 'msg_0'
          ? { ok: false, status: 500, error: 'answered 500' }
          : { ok: true, status: 200 };
      },
    });
    for (let sent = 0; sent < 10; ) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const release = releases.shift();
      if (release) {
        release();
        sent++;
      }
    }
    await sender.stop();
    expect(most).toBe(3);
    const shown = await store.listDeliveries(webhook.id, 1, 20);
    expect(shown.filter((d) => d.state === 'delivered')).toHaveLength(9);
    const failed = shown.find((d) => d.id === 'msg_0');
    expect(failed).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500, lastError: 'answered 500' });
    expect((failed?.nextAt ?? 0) - (failed?.lastAttemptAt ?? 0)).toBe(RETRY_DELAYS_MS[0]);
  });
});
