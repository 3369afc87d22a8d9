import { afterAll, assert, beforeEach, describe, it } from 'vitest';
import {
  DISABLE_AFTER_MS,
  type NewDelivery,
  type Webhook,
  type WebhookStore,
} from '../../core/webhooks/webhook-store.js';

export type WebhookStoreFactory = () => Promise<{ store: WebhookStore; close?: () => Promise<void> }>;

const NOW = Date.UTC(2026, 10, 29, 12);
const LEASE = 60_000;

const endpoint = (ownerId: number | null, url = 'https://hooks.example/in'): Omit<Webhook, 'id'> => ({
  ownerId,
  url,
  events: ['link.created', 'link.clicked'],
  secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0',
  createdAt: NOW,
});
let made = 0;
const delivery = (webhookId: number, at = NOW): NewDelivery => ({
  id: `msg_contract${++made}`,
  webhookId,
  type: 'link.created',
  body: `{"type":"link.created","n":${made}}`,
  createdAt: at,
});

/** What every webhook store does alike: endpoints per owner, and a queue claimed apart. */
export function describeWebhookContract(name: string, factory: WebhookStoreFactory): void {
  describe(`webhook store contract: ${name}`, () => {
    let store: WebhookStore;
    const closers: Array<() => Promise<void>> = [];
    beforeEach(async () => {
      const fresh = await factory();
      store = fresh.store;
      if (fresh.close) closers.push(fresh.close);
    });
    afterAll(async () => {
      for (const close of closers) await close();
    });

    it("keeps each owner's endpoints apart from every other owner's and the administrator's", async () => {
      const mine = await store.createWebhook(endpoint(1, 'https://one.example/'));
      const theirs = await store.createWebhook(endpoint(2, 'https://two.example/'));
      const admins = await store.createWebhook(endpoint(null, 'https://admin.example/'));
      assert.deepEqual(
        (await store.listWebhooks(1)).map((w) => w.url),
        ['https://one.example/'],
      );
      assert.deepEqual(
        (await store.listWebhooks(null)).map((w) => w.url),
        ['https://admin.example/'],
      );
      assert.deepEqual(await store.findWebhook(mine.id, 1), mine);
      assert.isUndefined(await store.findWebhook(mine.id, 2));
      assert.isUndefined(await store.findWebhook(admins.id, 1));
      assert.isFalse(await store.deleteWebhook(theirs.id, 1));
      assert.isTrue(await store.deleteWebhook(theirs.id, 2));
      assert.isFalse(await store.deleteWebhook(theirs.id, 2));
      assert.deepEqual((await store.activeWebhooks()).map((w) => w.id).sort(), [mine.id, admins.id].sort());
      assert.deepEqual(mine.events, ['link.created', 'link.clicked']);
    });

    it('claims a due delivery once until its lease ends, then again under the same id', async () => {
      const webhook = await store.createWebhook(endpoint(1));
      const queued = delivery(webhook.id);
      await store.enqueueDeliveries([queued, queued]); // the same id twice is one delivery
      const first = await store.claimDeliveries(NOW, 10, LEASE);
      assert.deepEqual(first, [
        {
          id: queued.id,
          webhookId: webhook.id,
          url: webhook.url,
          secret: webhook.secret,
          body: queued.body,
          attempts: 0,
        },
      ]);
      assert.deepEqual(await store.claimDeliveries(NOW + 1000, 10, LEASE), []);
      const again = await store.claimDeliveries(NOW + LEASE, 10, LEASE);
      assert.deepEqual(
        again.map((d) => [d.id, d.attempts]),
        [[queued.id, 1]],
      );
    });

    it('records a failure with its next attempt, and a success', async () => {
      const webhook = await store.createWebhook(endpoint(1));
      const queued = delivery(webhook.id);
      await store.enqueueDeliveries([queued]);
      await store.claimDeliveries(NOW, 10, LEASE);
      await store.finishDeliveries([
        {
          id: queued.id,
          webhookId: webhook.id,
          outcome: {
            ok: false,
            status: 500,
            error: 'answered 500',
            at: NOW + 10,
            retryAt: NOW + 5000,
          },
        },
      ]);
      const [failed] = await store.listDeliveries(webhook.id, 1, 10);
      assert.deepInclude(failed, {
        state: 'pending',
        attempts: 1,
        lastStatus: 500,
        lastError: 'answered 500',
        nextAt: NOW + 5000,
      });
      assert.equal((await store.findWebhook(webhook.id, 1))?.failingSince, NOW + 10);
      assert.deepEqual(await store.claimDeliveries(NOW + 4999, 10, LEASE), []);
      const [retried] = await store.claimDeliveries(NOW + 5000, 10, LEASE);
      assert.equal(retried?.id, queued.id);
      await store.finishDeliveries([
        { id: queued.id, webhookId: webhook.id, outcome: { ok: true, status: 204, at: NOW + 5100 } },
      ]);
      const [done] = await store.listDeliveries(webhook.id, 1, 10);
      assert.deepInclude(done, { state: 'delivered', attempts: 2, lastStatus: 204, lastAttemptAt: NOW + 5100 });
      assert.isUndefined(done?.lastError);
      assert.isUndefined(done?.nextAt);
      assert.isUndefined((await store.findWebhook(webhook.id, 1))?.failingSince);
      assert.deepEqual(await store.listDeliveries(webhook.id, 2, 10), []);
    });

    it('gives a delivery up without a next attempt, and disables an endpoint failing for a day', async () => {
      const webhook = await store.createWebhook(endpoint(1));
      const [a, b] = [delivery(webhook.id), delivery(webhook.id)];
      await store.enqueueDeliveries([a, b]);
      await store.claimDeliveries(NOW, 10, LEASE);
      await store.finishDeliveries([
        { id: a.id, webhookId: webhook.id, outcome: { ok: false, error: 'connect ECONNREFUSED', at: NOW } },
      ]);
      assert.equal((await store.listDeliveries(webhook.id, 1, 10)).find((d) => d.id === a.id)?.state, 'failed');
      await store.finishDeliveries([
        {
          id: b.id,
          webhookId: webhook.id,
          outcome: {
            ok: false,
            error: 'no answer within 10 s',
            at: NOW + DISABLE_AFTER_MS,
            retryAt: NOW + DISABLE_AFTER_MS + 1000,
          },
        },
      ]);
      const disabled = await store.findWebhook(webhook.id, 1);
      assert.equal(disabled?.disabledAt, NOW + DISABLE_AFTER_MS);
      assert.equal(disabled?.disabledReason, 'no answer within 10 s');
      assert.deepEqual(await store.activeWebhooks(), []);
      // A disabled endpoint's pending delivery is not sent.
      assert.deepEqual(await store.claimDeliveries(NOW + 2 * DISABLE_AFTER_MS, 10, LEASE), []);
    });

    it('records a batch of outcomes in one call', async () => {
      const webhook = await store.createWebhook(endpoint(4));
      const [a, b] = [delivery(webhook.id), delivery(webhook.id)];
      await store.enqueueDeliveries([a, b]);
      await store.claimDeliveries(NOW, 10, LEASE);
      await store.finishDeliveries([
        {
          id: a.id,
          webhookId: webhook.id,
          outcome: { ok: false, status: 502, error: 'answered 502', at: NOW + 1, retryAt: NOW + 9 },
        },
        { id: b.id, webhookId: webhook.id, outcome: { ok: true, status: 200, at: NOW + 2 } },
      ]);
      const shown = await store.listDeliveries(webhook.id, 4, 10);
      assert.deepEqual(
        shown.map((d) => [d.id, d.state, d.lastStatus]),
        [
          [b.id, 'delivered', 200],
          [a.id, 'pending', 502],
        ],
      );
      // The later success ends the failing time the earlier failure began.
      assert.isUndefined((await store.findWebhook(webhook.id, 4))?.failingSince);
      await store.finishDeliveries([]);
    });

    it('lists the last deliveries newest first, and drops them with their endpoint', async () => {
      const webhook = await store.createWebhook(endpoint(1));
      const batch = [delivery(webhook.id, NOW), delivery(webhook.id, NOW + 1), delivery(webhook.id, NOW + 2)];
      await store.enqueueDeliveries(batch);
      assert.deepEqual(
        (await store.listDeliveries(webhook.id, 1, 2)).map((d) => d.id),
        [batch[2]?.id, batch[1]?.id],
      );
      assert.isTrue(await store.deleteWebhook(webhook.id, 1));
      assert.deepEqual(await store.claimDeliveries(NOW + 10, 10, LEASE), []);
      await store.enqueueDeliveries([delivery(webhook.id)]); // to an endpoint that is gone: nothing
      assert.deepEqual(await store.claimDeliveries(NOW + 10, 10, LEASE), []);
    });

    it('claims at most the limit, oldest due first', async () => {
      const webhook = await store.createWebhook(endpoint(3));
      const batch = [delivery(webhook.id, NOW + 2), delivery(webhook.id, NOW), delivery(webhook.id, NOW + 1)];
      await store.enqueueDeliveries(batch);
      const claimed = await store.claimDeliveries(NOW + 5, 2, LEASE);
      assert.deepEqual(
        claimed.map((d) => d.id),
        [batch[1]?.id, batch[2]?.id],
      );
    });
  });
}
