import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../core/management/owners/api-keys.js';
import { expiryFor } from '../../core/rules/expiry.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createIdbLinkStore } from '../../extension/backend/idb-link-store.js';
import { renewEntry } from '../../extension/service/renew-link.js';
import { DEFAULT_SETTINGS } from '../../extension/settings.js';
import { link } from '../contract/link-store-contract.js';
import { entry, freshHistory, linkletServer, NOW, SERVER, useMockServer } from './helpers.js';

const DAY = 86_400_000;
const { server } = useMockServer();

describe('renewing a link from the history', () => {
  it('renews an expired local link in the bundled backend: it opens again, and the history shows the new expiry', async () => {
    const { history, open, dispose } = freshHistory();
    try {
      const store = createIdbLinkStore(open);
      await store.create(link('local1', { createdAt: NOW - 3 * DAY, expiresAt: NOW - DAY }), NOW - 3 * DAY);
      const local = entry({ code: 'local1', status: 'local', server: null, expiresAt: NOW - DAY });
      await history.put(local);
      const renewed = await renewEntry(local, '48h', { store, history, settings: DEFAULT_SETTINGS, now: NOW });
      expect(renewed).toMatchObject({ expire: '48h', expiresAt: NOW + 2 * DAY });
      expect((await store.findByCodeKey('local1'))?.expiresAt).toBe(NOW + 2 * DAY);
      expect((await history.get(local.id))?.expiresAt).toBe(NOW + 2 * DAY);
    } finally {
      await dispose();
    }
  });

  it('renews a live local link too: its expiry moves to the chosen time from now, earlier or later', async () => {
    const { history, open, dispose } = freshHistory();
    try {
      const store = createIdbLinkStore(open);
      await store.create(link('live1', { createdAt: NOW - DAY, expiresAt: NOW + 3 * DAY }), NOW - DAY);
      const live = entry({ code: 'live1', status: 'local', server: null, expire: '1week', expiresAt: NOW + 3 * DAY });
      await history.put(live);
      const later = await renewEntry(live, '1month', { store, history, settings: DEFAULT_SETTINGS, now: NOW });
      expect(later).toMatchObject({ expire: '1month', expiresAt: expiryFor('1month', NOW) });
      expect((await store.findByCodeKey('live1'))?.expiresAt).toBe(expiryFor('1month', NOW));
      // Renewing is "this long from now", so a shorter choice brings the end nearer.
      const sooner = await renewEntry(later, '24h', { store, history, settings: DEFAULT_SETTINGS, now: NOW + 1000 });
      expect(sooner.expiresAt).toBe(NOW + 1000 + DAY);
      expect((await store.findByCodeKey('live1'))?.expiresAt).toBe(NOW + 1000 + DAY);
      expect((await history.get(live.id))?.expiresAt).toBe(NOW + 1000 + DAY);
    } finally {
      await dispose();
    }
  });

  it('renews a synced link on the server with the key, and keeps a disabled one disabled', async () => {
    const { history, open, dispose } = freshHistory();
    const remote = createMemoryLinkStore();
    const key = generateApiKey();
    const owner = await remote.createKey('alice', await hashApiKey(key), NOW);
    await remote.create(
      link('srv1', { ownerId: owner.ownerId, createdAt: Date.now() - 3 * DAY, expiresAt: Date.now() - DAY }),
      Date.now() - 3 * DAY,
    );
    await remote.updateLink('srv1', { all: true }, { disabled: true, expiresAt: Date.now() - DAY }, Date.now());
    server.use(linkletServer(remote));
    try {
      const synced = entry({ code: 'srv1', status: 'synced', expiresAt: NOW - DAY });
      const settings = { ...DEFAULT_SETTINGS, serverUrl: SERVER, apiKey: key };
      const store = createIdbLinkStore(open);
      const renewed = await renewEntry(synced, '1month', { store, history, settings, now: Date.now() });
      const held = await remote.findByCodeKey('srv1');
      expect(held?.expiresAt).toBeGreaterThan(Date.now());
      expect(renewed).toMatchObject({ expire: '1month', expiresAt: held?.expiresAt, disabled: true });
      expect(held?.expiresAt).toBeLessThanOrEqual(expiryFor('1month', Date.now()));
    } finally {
      await dispose();
    }
  });

  it('refuses a synced link without a key, saying what renewing needs', async () => {
    const { history, open, dispose } = freshHistory();
    try {
      const synced = entry({ code: 'nokey', status: 'synced' });
      const deps = { store: createIdbLinkStore(open), history, settings: { ...DEFAULT_SETTINGS, serverUrl: SERVER } };
      await expect(renewEntry(synced, '24h', { ...deps, now: NOW })).rejects.toThrow(/renew|연장/);
    } finally {
      await dispose();
    }
  });
});
