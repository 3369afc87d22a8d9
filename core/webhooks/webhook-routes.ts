import type { Env, Hono } from 'hono';
import { LinkletError } from '../http/errors.js';
import { notAllowed } from '../http/not-allowed.js';
import { parseJsonText } from '../http/parse-json-text.js';
import { type ManagementContext, PRIVATE, success } from '../management/management-context.js';
import { requireCaller } from '../management/owners/authenticate.js';
import type { WebhookDirectory } from './webhook-directory.js';
import { deliveryBody } from './webhook-payloads.js';
import { parseWebhookRequest } from './webhook-request.js';
import { generateDeliveryId, generateWebhookSecret } from './webhook-secret.js';
import { DELIVERIES_SHOWN, MAX_WEBHOOKS_PER_OWNER, type WebhookOwner, type WebhookStore } from './webhook-store.js';
import { toDeliveryView, toWebhookView } from './webhook-view.js';

export interface WebhookRouteOptions {
  store: WebhookStore;
  directory: WebhookDirectory;
  blockPrivateTargets: boolean;
  /** Told once a test delivery is queued (the server's sender sends it at once). */
  onQueued?: () => void;
}

const notFound = (id: string) =>
  new LinkletError('not_found', `You have no webhook with id ${JSON.stringify(id)}; GET /api/v1/webhooks lists yours.`);

/**
 * `POST/GET /api/v1/webhooks`, `DELETE /api/v1/webhooks/{id}`, its deliveries and a test
 * delivery. Every key has its own endpoints: an owner's, or the administrator's (told of every
 * link); none sees another's, and another's id is a 404 like one that does not exist.
 */
export function registerWebhookRoutes<E extends Env>(
  app: Hono<E>,
  context: Pick<ManagementContext, 'callerOf' | 'now' | 'limitBody'>,
  options: WebhookRouteOptions,
): void {
  const { store, directory } = options;
  const ownerOf = async (request: Request): Promise<WebhookOwner> => {
    const caller = requireCaller(await context.callerOf(request));
    return caller.admin ? null : caller.ownerId;
  };
  const idOf = (raw: string) => (/^\d{1,15}$/.test(raw) ? Number(raw) : undefined);

  app.post('/api/v1/webhooks', async (c, next) => {
    await ownerOf(c.req.raw);
    return context.limitBody(c, next);
  });
  app.post('/api/v1/webhooks', async (c) => {
    const owner = await ownerOf(c.req.raw);
    const request = parseWebhookRequest(parseJsonText(await c.req.raw.text()), options.blockPrivateTargets);
    if ((await store.listWebhooks(owner)).length >= MAX_WEBHOOKS_PER_OWNER) {
      throw new LinkletError(
        'conflict',
        `You have ${MAX_WEBHOOKS_PER_OWNER} webhooks, the most a key may have; delete one you no longer use first.`,
      );
    }
    const made = await store.createWebhook({
      ownerId: owner,
      ...request,
      secret: generateWebhookSecret(),
      createdAt: context.now(),
    });
    await directory.refresh();
    return c.json(
      success('The webhook was created; its secret is shown only this once.', {
        id: made.id,
        url: made.url,
        events: made.events,
        created_at: toWebhookView(made).created_at,
        secret: made.secret,
      }),
      201,
      PRIVATE,
    );
  });
  app.get('/api/v1/webhooks', async (c) => {
    const webhooks = await store.listWebhooks(await ownerOf(c.req.raw));
    return c.json(success(`${webhooks.length} webhooks.`, { webhooks: webhooks.map(toWebhookView) }), 200, PRIVATE);
  });
  app.all('/api/v1/webhooks', notAllowed(['GET', 'HEAD', 'POST', 'OPTIONS']));

  app.delete('/api/v1/webhooks/:id', async (c) => {
    const owner = await ownerOf(c.req.raw);
    const id = idOf(c.req.param('id'));
    if (id === undefined || !(await store.deleteWebhook(id, owner))) throw notFound(c.req.param('id'));
    await directory.refresh();
    return c.json(success('The webhook was deleted; nothing more is sent to it.'), 200, PRIVATE);
  });
  app.all('/api/v1/webhooks/:id', notAllowed(['DELETE', 'OPTIONS']));

  app.get('/api/v1/webhooks/:id/deliveries', async (c) => {
    const owner = await ownerOf(c.req.raw);
    const id = idOf(c.req.param('id'));
    const webhook = id === undefined ? undefined : await store.findWebhook(id, owner);
    if (webhook === undefined) throw notFound(c.req.param('id'));
    const deliveries = await store.listDeliveries(webhook.id, owner, DELIVERIES_SHOWN);
    return c.json(
      success(`The last ${deliveries.length} deliveries.`, {
        webhook: toWebhookView(webhook),
        deliveries: deliveries.map(toDeliveryView),
      }),
      200,
      PRIVATE,
    );
  });
  app.all('/api/v1/webhooks/:id/deliveries', notAllowed(['GET', 'HEAD', 'OPTIONS']));

  app.post('/api/v1/webhooks/:id/test', async (c) => {
    const owner = await ownerOf(c.req.raw);
    const id = idOf(c.req.param('id'));
    const webhook = id === undefined ? undefined : await store.findWebhook(id, owner);
    if (webhook === undefined) throw notFound(c.req.param('id'));
    if (webhook.disabledAt !== undefined) {
      throw new LinkletError(
        'conflict',
        'This webhook was disabled after failing for a day, so nothing is sent to it; delete it and add it again once it works.',
      );
    }
    const at = context.now();
    const delivery = {
      id: generateDeliveryId(),
      webhookId: webhook.id,
      type: 'webhook.test' as const,
      body: deliveryBody('webhook.test', at, { webhook_id: webhook.id, url: webhook.url }),
      createdAt: at,
    };
    await store.enqueueDeliveries([delivery]);
    options.onQueued?.();
    return c.json(
      success('A test event was queued; its delivery shows among the last deliveries.', { id: delivery.id }),
      202,
      PRIVATE,
    );
  });
  app.all('/api/v1/webhooks/:id/test', notAllowed(['POST', 'OPTIONS']));
}
