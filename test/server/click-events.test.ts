import { describe, expect, it } from 'vitest';
import type { Link } from '../../core/store/link-store.js';
import { createMemoryWebhookStore } from '../../core/webhooks/memory-webhook-store.js';
import { createWebhookDirectory } from '../../core/webhooks/webhook-directory.js';
import { createWebhookEvents } from '../../core/webhooks/webhook-events.js';
import { CLICKS_PER_DELIVERY } from '../../core/webhooks/webhook-payloads.js';
import { createVisitParser } from '../../server/clicks/visit-parser.js';
import { createClickEvents } from '../../server/webhooks/click-events.js';

const AT = Date.UTC(2026, 10, 29, 12);
const link = (code: string, ownerId?: number): Link => ({
  code,
  codeKey: code,
  originalUrl: `https://example.com/${code}`,
  createdAt: AT,
  expiresAt: AT + 86_400_000,
  ...(ownerId !== undefined && { ownerId }),
});
const LINKS = new Map([
  ['alices', link('alices', 1)],
  ['bobs', link('bobs', 2)],
  ['nobodys', link('nobodys')],
]);

async function setUp() {
  const store = createMemoryWebhookStore();
  const hook = (ownerId: number | null) =>
    store.createWebhook({
      ownerId,
      url: 'https://hooks.example/',
      events: ['link.clicked'],
      secret: 'whsec_x',
      createdAt: AT,
    });
  const ids = { alice: (await hook(1)).id, admin: (await hook(null)).id };
  const directory = createWebhookDirectory(store);
  await directory.refresh();
  const events = createWebhookEvents({ store, directory, baseUrl: 'https://sho.rt', now: () => AT });
  const clicks = createClickEvents({
    events,
    findLink: async (codeKey) => LINKS.get(codeKey),
    parseVisit: createVisitParser(),
    baseUrl: 'https://sho.rt',
    logger: { warn: () => {} },
    everyMs: 60_000,
  });
  return { store, ids, clicks };
}

const visit = (extra = {}) => ({
  referer: 'https://news.example.org/a?b=c',
  userAgent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  country: 'KR',
  private: false,
  peer: '198.51.100.9',
  forwardedFor: '203.0.113.7',
  ...extra,
});

describe('link.clicked from clicks', () => {
  it("tells a click to its owner's endpoints and the administrator's, never another owner's, with no address", async () => {
    const { store, ids, clicks } = await setUp();
    clicks.record('alices', AT, visit());
    clicks.record('bobs', AT, visit());
    clicks.record('nobodys', AT + 1000, visit({ private: true }));
    clicks.record('gone', AT, visit());
    await clicks.close();
    const claimed = await store.claimDeliveries(Number.MAX_SAFE_INTEGER, 100, 1);
    const toAlice = claimed.filter((d) => d.webhookId === ids.alice).map((d) => JSON.parse(d.body));
    const toAdmin = claimed.filter((d) => d.webhookId === ids.admin).map((d) => JSON.parse(d.body));
    expect(toAlice).toEqual([
      {
        type: 'link.clicked',
        timestamp: new Date(AT).toISOString(),
        data: {
          clicks: [
            {
              code: 'alices',
              short_url: 'https://sho.rt/alices/',
              clicked_at: new Date(AT).toISOString(),
              referrer: 'news.example.org',
              country: 'KR',
              browser: 'Chrome',
              os: 'Windows',
              device: 'desktop',
              bot: false,
            },
          ],
        },
      },
    ]);
    // The administrator's endpoint gets the beat's clicks on every link in one delivery.
    expect(toAdmin).toHaveLength(1);
    const adminClicks = toAdmin[0].data.clicks;
    expect(toAdmin[0].timestamp).toBe(new Date(AT + 1000).toISOString());
    expect(adminClicks.map((click: { code: string }) => click.code)).toEqual(['alices', 'bobs', 'nobodys']);
    // A visit that asked not to be tracked carries its time alone.
    expect(adminClicks[2]).toEqual({
      code: 'nobodys',
      short_url: 'https://sho.rt/nobodys/',
      clicked_at: new Date(AT + 1000).toISOString(),
    });
    for (const one of claimed) {
      expect(one.body).not.toContain('198.51.100.9');
      expect(one.body).not.toContain('203.0.113.7');
    }
  });

  it('carries a busy second in deliveries of at most CLICKS_PER_DELIVERY clicks, in the order they came', async () => {
    const { store, ids, clicks } = await setUp();
    const many = CLICKS_PER_DELIVERY * 2 + 7;
    for (let i = 0; i < many; i++) clicks.record(i % 2 === 0 ? 'alices' : 'bobs', AT + i, visit());
    await clicks.close();
    const claimed = await store.claimDeliveries(Number.MAX_SAFE_INTEGER, 100, 1);
    const toAdmin = claimed.filter((d) => d.webhookId === ids.admin).map((d) => JSON.parse(d.body).data.clicks);
    expect(toAdmin.map((list) => list.length)).toEqual([CLICKS_PER_DELIVERY, CLICKS_PER_DELIVERY, 7]);
    const times = toAdmin.flat().map((click: { clicked_at: string }) => Date.parse(click.clicked_at));
    expect(times).toEqual(Array.from({ length: many }, (_, i) => AT + i));
    // Alice's endpoint is told of her own link's clicks only: every other one.
    const toAlice = claimed.filter((d) => d.webhookId === ids.alice).map((d) => JSON.parse(d.body).data.clicks);
    expect(toAlice.flat()).toHaveLength(Math.ceil(many / 2));
    expect(new Set(toAlice.flat().map((click: { code: string }) => click.code))).toEqual(new Set(['alices']));
    // Every delivery has its own webhook-id.
    expect(new Set(claimed.map((d) => d.id)).size).toBe(claimed.length);
  });

  it("holds no click of a link whose owner no endpoint serves: another owner's endpoint costs a click nothing", async () => {
    const store = createMemoryWebhookStore();
    const alices = await store.createWebhook({
      ownerId: 1,
      url: 'https://hooks.example/',
      events: ['link.clicked'],
      secret: 'whsec_x',
      createdAt: AT,
    });
    const directory = createWebhookDirectory(store);
    await directory.refresh();
    expect([directory.takesClicksOf(1), directory.takesClicksOf(2), directory.takesClicksOf(undefined)]).toEqual([
      true,
      false,
      false,
    ]);
    const events = createWebhookEvents({ store, directory, baseUrl: 'https://sho.rt', now: () => AT });
    const read: string[] = [];
    const clicks = createClickEvents({
      events,
      findLink: async (codeKey) => {
        read.push(codeKey);
        return LINKS.get(codeKey);
      },
      parseVisit: createVisitParser(),
      baseUrl: 'https://sho.rt',
      logger: { warn: () => {} },
      everyMs: 60_000,
    });
    for (let i = 0; i < 100; i++) {
      clicks.record('bobs', AT + i, visit(), 2);
      clicks.record('nobodys', AT + i, visit());
    }
    clicks.record('alices', AT, visit(), 1);
    await clicks.close();
    // Only Alice's link was read, and only her click was told.
    expect(read).toEqual(['alices']);
    const claimed = await store.claimDeliveries(Number.MAX_SAFE_INTEGER, 100, 1);
    expect(claimed.map((d) => d.webhookId)).toEqual([alices.id]);
    expect(JSON.parse(claimed[0]?.body ?? '{}').data.clicks.map((click: { code: string }) => click.code)).toEqual([
      'alices',
    ]);
  });

  it('holds nothing while no endpoint takes clicks', async () => {
    const store = createMemoryWebhookStore();
    const directory = createWebhookDirectory(store);
    await directory.refresh();
    const events = createWebhookEvents({ store, directory, baseUrl: 'https://sho.rt', now: () => AT });
    let reads = 0;
    const clicks = createClickEvents({
      events,
      findLink: async (codeKey) => {
        reads++;
        return LINKS.get(codeKey);
      },
      baseUrl: 'https://sho.rt',
      logger: { warn: () => {} },
      everyMs: 60_000,
    });
    clicks.record('alices', AT, visit());
    await clicks.close();
    expect(reads).toBe(0);
  });
});
