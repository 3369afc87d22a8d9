import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { generateClaimToken, hashClaimToken } from '../../core/management/claims/claim-token.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createMemoryWebhookStore } from '../../core/webhooks/memory-webhook-store.js';
import { createWebhookDirectory } from '../../core/webhooks/webhook-directory.js';
import { createWebhookEvents } from '../../core/webhooks/webhook-events.js';
import { MAX_WEBHOOKS_PER_OWNER } from '../../core/webhooks/webhook-store.js';
import { withLinkEvents } from '../../core/webhooks/with-link-events.js';
import { DAY, json, makeHandler, START } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const HOOK = 'https://hooks.example/linklet';

/** A handler on memory stores with webhooks, `API_KEY` set, and two owners, alice and bob. */
async function withWebhooks(blockPrivateTargets = true) {
  const webhooks = createMemoryWebhookStore();
  const directory = createWebhookDirectory(webhooks);
  let clock = START;
  const events = createWebhookEvents({ store: webhooks, directory, baseUrl: 'https://sho.rt', now: () => clock });
  const app = makeHandler({
    apiKey: ADMIN,
    blockPrivateTargets,
    store: withLinkEvents(createMemoryLinkStore(), events),
    webhooks: { store: webhooks, directory, blockPrivateTargets },
  });
  const tick = () => {
    clock = app.clock.now;
  };
  const send = (method: string, path: string, key: string | undefined, body?: unknown) => {
    tick();
    return app.fetch(path, {
      method,
      headers: { ...(key ? { 'X-API-Key': key } : {}), 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  };
  const makeKey = async (name: string) =>
    (await json(await send('POST', '/api/v1/keys', ADMIN, { name }))).data.key as string;
  const alice = await makeKey('alice');
  const bob = await makeKey('bob');
  /** The bodies queued for an endpoint, oldest first (claimed: each is read once). */
  const claimed: Array<{ webhookId: number; body: string }> = [];
  const queued = async (id: number) => {
    claimed.push(...(await webhooks.claimDeliveries(Number.MAX_SAFE_INTEGER, 1000, 1)));
    return claimed.filter((d) => d.webhookId === id).map((d) => JSON.parse(d.body));
  };
  return { app, webhooks, send, alice, bob, queued };
}

describe('webhook endpoints', () => {
  it('makes an endpoint with a whsec_ secret shown once, and lists it without the secret', async () => {
    const { send, alice } = await withWebhooks();
    const made = await send('POST', '/api/v1/webhooks', alice, { url: HOOK, events: ['link.created', 'link.clicked'] });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const { data } = await json(made);
    expect(Object.keys(data).sort()).toEqual(['created_at', 'events', 'id', 'secret', 'url']);
    expect(data).toMatchObject({
      url: HOOK,
      events: ['link.created', 'link.clicked'],
      created_at: new Date(START).toISOString(),
    });
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(data.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);

    const listed = await json(await send('GET', '/api/v1/webhooks', alice));
    expect(listed.data.webhooks).toEqual([
      {
        id: data.id,
        url: HOOK,
        events: ['link.created', 'link.clicked'],
        created_at: data.created_at,
        disabled: false,
        disabled_at: null,
        disabled_reason: null,
        failing_since: null,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(data.secret);
  });

  it("never shows, tests or deletes another owner's endpoint", async () => {
    const { send, alice, bob } = await withWebhooks();
    const { data } = await json(await send('POST', '/api/v1/webhooks', alice, { url: HOOK, events: ['link.created'] }));
    expect((await json(await send('GET', '/api/v1/webhooks', bob))).data.webhooks).toEqual([]);
    expect((await json(await send('GET', '/api/v1/webhooks', ADMIN))).data.webhooks).toEqual([]);
    for (const [method, path] of [
      ['DELETE', `/api/v1/webhooks/${data.id}`],
      ['GET', `/api/v1/webhooks/${data.id}/deliveries`],
      ['POST', `/api/v1/webhooks/${data.id}/test`],
    ] as const) {
      expect((await send(method, path, bob)).status).toBe(404);
      expect((await send(method, path, ADMIN)).status).toBe(404);
    }
    expect((await send('DELETE', `/api/v1/webhooks/${data.id}`, alice)).status).toBe(200);
    expect((await send('DELETE', `/api/v1/webhooks/${data.id}`, alice)).status).toBe(404);
    expect((await json(await send('GET', '/api/v1/webhooks', alice))).data.webhooks).toEqual([]);
  });

  it('asks for a key', async () => {
    const { send } = await withWebhooks();
    expect((await send('GET', '/api/v1/webhooks', undefined)).status).toBe(401);
    expect((await send('POST', '/api/v1/webhooks', undefined, { url: HOOK, events: ['link.created'] })).status).toBe(
      401,
    );
  });

  it.each([
    [{ url: 'http://hooks.example/in', events: ['link.created'] }, 'url must use https'],
    [{ url: 'https://127.0.0.1/in', events: ['link.created'] }, 'private, loopback or link-local'],
    [{ url: 'https://169.254.169.254/latest', events: ['link.created'] }, 'private, loopback or link-local'],
    [{ url: 'https://[::ffff:10.0.0.1]/', events: ['link.created'] }, 'private, loopback or link-local'],
    [{ url: 'https://localhost:8080/', events: ['link.created'] }, 'private, loopback or link-local'],
    [{ url: 'ftp://hooks.example/', events: ['link.created'] }, 'url must use https'],
    [{ url: 'https://user:pw@hooks.example/', events: ['link.created'] }, 'credentials'],
    [{ url: 'not a url', events: ['link.created'] }, 'absolute URL'],
    [{ events: ['link.created'] }, 'url is required'],
    [{ url: HOOK }, 'events is required'],
    [{ url: HOOK, events: [] }, 'events is required'],
    [{ url: HOOK, events: ['link.exploded'] }, 'which is no event'],
    [[HOOK], 'JSON object'],
  ])('refuses %j with 400', async (body, words) => {
    const { send, alice } = await withWebhooks();
    const refused = await send('POST', '/api/v1/webhooks', alice, body);
    expect(refused.status).toBe(400);
    expect((await json(refused)).message).toContain(words);
  });

  it('takes HTTP and private hosts when BLOCK_PRIVATE_TARGETS is off', async () => {
    const { send, alice } = await withWebhooks(false);
    const made = await send('POST', '/api/v1/webhooks', alice, {
      url: 'http://127.0.0.1:9999/in',
      events: ['link.clicked', 'link.clicked'],
    });
    expect(made.status).toBe(201);
    expect((await json(made)).data.events).toEqual(['link.clicked']);
  });

  it(`keeps at most ${MAX_WEBHOOKS_PER_OWNER} endpoints a key`, async () => {
    const { send, alice, bob } = await withWebhooks();
    for (let i = 0; i < MAX_WEBHOOKS_PER_OWNER; i++) {
      expect(
        (await send('POST', '/api/v1/webhooks', alice, { url: `${HOOK}/${i}`, events: ['link.created'] })).status,
      ).toBe(201);
    }
    const refused = await send('POST', '/api/v1/webhooks', alice, { url: HOOK, events: ['link.created'] });
    expect(refused.status).toBe(409);
    expect((await send('POST', '/api/v1/webhooks', bob, { url: HOOK, events: ['link.created'] })).status).toBe(201);
  });

  it('answers 405 with the methods a path takes', async () => {
    const { send, alice } = await withWebhooks();
    const refused = await send('PUT', '/api/v1/webhooks', alice);
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });
});

describe('link events', () => {
  it("queues link.created, link.updated and link.deleted for the owner's endpoints and the administrator's", async () => {
    const { send, alice, bob, queued } = await withWebhooks();
    const hook = async (key: string, events: string[]) =>
      (await json(await send('POST', '/api/v1/webhooks', key, { url: HOOK, events }))).data.id as number;
    const alices = await hook(alice, ['link.created', 'link.updated', 'link.deleted']);
    const admins = await hook(ADMIN, ['link.created']);
    const bobs = await hook(bob, ['link.clicked']);

    expect(
      (await send('POST', '/api/v1/shorten', alice, { original_url: 'https://example.com/a', custom_code: 'alpha' }))
        .status,
    ).toBe(201);
    expect(
      (await send('POST', '/api/v1/shorten', bob, { original_url: 'https://example.com/b', custom_code: 'bravo' }))
        .status,
    ).toBe(201);
    expect((await send('PATCH', '/api/v1/links/alpha', alice, { title: 'First' })).status).toBe(200);
    expect((await send('DELETE', '/api/v1/links/alpha', alice)).status).toBe(200);

    const toAlice = await queued(alices);
    expect(toAlice.map((body) => [body.type, body.data.code])).toEqual([
      ['link.created', 'alpha'],
      ['link.updated', 'alpha'],
      ['link.deleted', 'alpha'],
    ]);
    expect(toAlice[0].timestamp).toBe(new Date(START).toISOString());
    expect(toAlice[0].data).toMatchObject({
      short_url: 'https://sho.rt/alpha/',
      original_url: 'https://example.com/a',
    });
    expect(toAlice[1].data.title).toBe('First');
    expect(toAlice[2].data).toEqual({
      code: 'alpha',
      short_url: 'https://sho.rt/alpha/',
      deleted_at: new Date(START).toISOString(),
    });
    expect((await queued(admins)).map((body) => body.data.code).sort()).toEqual(['alpha', 'bravo']);
    expect(await queued(bobs)).toEqual([]);
  });

  it("queues link.updated for the new owner's endpoints when a link made without a key is claimed", async () => {
    const { app, send, alice, queued } = await withWebhooks();
    const hook = (await json(await send('POST', '/api/v1/webhooks', alice, { url: HOOK, events: ['link.updated'] })))
      .data.id as number;
    const token = generateClaimToken();
    const at = app.clock.now;
    const guest = {
      code: 'guest',
      codeKey: 'guest',
      originalUrl: 'https://example.com/g',
      createdAt: at,
      expiresAt: at + DAY,
    };
    await app.store.create({ ...guest, claimTokenHash: await hashClaimToken(token) }, at);
    const claim = { claims: [{ code: 'guest', claim_token: token }] };
    expect((await send('POST', '/api/v1/links/claim', alice, claim)).status).toBe(200);
    expect((await queued(hook)).map((body) => [body.type, body.data.code])).toEqual([['link.updated', 'guest']]);
  });

  it('queues a test delivery and shows it among the last deliveries', async () => {
    const { send, alice } = await withWebhooks();
    const { data } = await json(await send('POST', '/api/v1/webhooks', alice, { url: HOOK, events: ['link.clicked'] }));
    const tested = await send('POST', `/api/v1/webhooks/${data.id}/test`, alice);
    expect(tested.status).toBe(202);
    const { id } = (await json(tested)).data;
    expect(id).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
    const shown = await json(await send('GET', `/api/v1/webhooks/${data.id}/deliveries`, alice));
    expect(shown.data.webhook.id).toBe(data.id);
    expect(shown.data.deliveries).toEqual([
      {
        id,
        type: 'webhook.test',
        created_at: new Date(START).toISOString(),
        state: 'pending',
        attempts: 0,
        last_attempt_at: null,
        last_status: null,
        last_error: null,
        next_attempt_at: new Date(START).toISOString(),
      },
    ]);
  });
});

describe('a disabled endpoint', () => {
  it('says why, and takes no test until it is added again', async () => {
    const { send, alice, webhooks } = await withWebhooks();
    const { data } = await json(await send('POST', '/api/v1/webhooks', alice, { url: HOOK, events: ['link.created'] }));
    expect((await send('POST', `/api/v1/webhooks/${data.id}/test`, alice)).status).toBe(202);
    const [queued] = await webhooks.claimDeliveries(START, 10, 60_000);
    const failure = (at: number) => ({
      ok: false as const,
      status: 410,
      error: 'answered 410',
      at,
      retryAt: at + 1000,
    });
    await webhooks.finishDeliveries([{ id: queued?.id ?? '', webhookId: data.id, outcome: failure(START) }]);
    await webhooks.finishDeliveries([{ id: queued?.id ?? '', webhookId: data.id, outcome: failure(START + DAY) }]);
    const [shown] = (await json(await send('GET', '/api/v1/webhooks', alice))).data.webhooks;
    expect(shown).toMatchObject({
      disabled: true,
      disabled_at: new Date(START + DAY).toISOString(),
      disabled_reason: 'answered 410',
      failing_since: new Date(START).toISOString(),
    });
    const refused = await send('POST', `/api/v1/webhooks/${data.id}/test`, alice);
    expect(refused.status).toBe(409);
    expect((await json(refused)).message).toContain('delete it and add it again');
  });
});

describe('the OpenAPI document', () => {
  it('describes the answers and every delivery body as they are', async () => {
    const { app, send, alice, queued } = await withWebhooks();
    const doc = await json(await app.fetch('/api/v1/openapi.json'));
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'link.clicked',
      'link.created',
      'link.deleted',
      'link.updated',
      'webhook.test',
    ]);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('uri', (value: string) => URL.canParse(value));
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const check = (schema: string, value: unknown) => {
      const valid = ajv.validate({ $ref: `doc#/components/schemas/${schema}` }, value);
      expect(valid, `${schema}: ${ajv.errorsText()}`).toBe(true);
    };
    const made = await send('POST', '/api/v1/webhooks', alice, {
      url: HOOK,
      events: ['link.created', 'link.updated', 'link.deleted'],
    });
    const { data } = await json(made.clone());
    check('WebhookCreated', await json(made));
    check('WebhookList', await json(await send('GET', '/api/v1/webhooks', alice)));
    check('WebhookTestQueued', await json(await send('POST', `/api/v1/webhooks/${data.id}/test`, alice)));
    check('WebhookDeliveries', await json(await send('GET', `/api/v1/webhooks/${data.id}/deliveries`, alice)));
    const other = await json(await send('POST', '/api/v1/webhooks', alice, { url: HOOK, events: ['link.clicked'] }));
    check('Done', await json(await send('DELETE', `/api/v1/webhooks/${other.data.id}`, alice)));
    expect(
      (await send('POST', '/api/v1/shorten', alice, { original_url: 'https://example.com/', custom_code: 'doc' }))
        .status,
    ).toBe(201);
    expect((await send('PATCH', '/api/v1/links/doc', alice, { tags: ['a'] })).status).toBe(200);
    expect((await send('DELETE', '/api/v1/links/doc', alice)).status).toBe(200);
    const bodies = await queued(data.id);
    const schemaOf: Record<string, string> = {
      'webhook.test': 'WebhookTestEvent',
      'link.created': 'LinkCreatedEvent',
      'link.updated': 'LinkUpdatedEvent',
      'link.deleted': 'LinkDeletedEvent',
    };
    expect(bodies.map((body) => body.type)).toEqual(['webhook.test', 'link.created', 'link.updated', 'link.deleted']);
    for (const body of bodies) check(schemaOf[body.type] as string, body);
    const tracked = { code: 'doc', short_url: 'https://sho.rt/doc/', clicked_at: new Date(START).toISOString() };
    check('LinkClickedEvent', { type: 'link.clicked', timestamp: tracked.clicked_at, data: { clicks: [tracked] } });
  });
});

describe('queueing', () => {
  it('writes the deliveries of changes made together (an import) in one store write', async () => {
    const webhooks = createMemoryWebhookStore();
    const writes: number[] = [];
    const counted = {
      ...webhooks,
      enqueueDeliveries: async (deliveries: Parameters<typeof webhooks.enqueueDeliveries>[0]) => {
        writes.push(deliveries.length);
        await webhooks.enqueueDeliveries(deliveries);
      },
    };
    await webhooks.createWebhook({
      ownerId: 1,
      url: HOOK,
      events: ['link.created'],
      secret: 'whsec_x',
      createdAt: START,
    });
    const directory = createWebhookDirectory(webhooks);
    await directory.refresh();
    const events = createWebhookEvents({ store: counted, directory, baseUrl: 'https://sho.rt', now: () => START });
    const link = (code: string) => ({
      code,
      codeKey: code,
      originalUrl: 'https://example.com/',
      createdAt: START,
      expiresAt: START + DAY,
      ownerId: 1,
    });
    await Promise.all(Array.from({ length: 25 }, (_, i) => events.linkChanged('link.created', link(`c${i}`))));
    expect(writes).toEqual([25]);
    expect(await webhooks.claimDeliveries(START, 100, 1)).toHaveLength(25);
  });
});
