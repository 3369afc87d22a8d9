import { describe, expect, it } from 'vitest';
import { isPasswordProtected } from '../../core/passwords/protected-link.js';
import { CLICK_DAYS_KEPT, dayOf } from '../../core/rules/clicks.js';
import {
  KEY_TOUCH_INTERVAL_MS,
  type LinkChange,
  type LinkOrderField,
  type ManagedLinkStore,
  type OwnerScope,
} from '../../core/store/link-management-store.js';
import type { Link } from '../../core/store/link-store.js';
import { freshStorePerTest, type StoreFactory } from './fresh-store.js';
import { link, NOW } from './link-store-contract.js';

const ALL: OwnerScope = { all: true };
const hash = (n: number) => n.toString(16).padStart(64, '0');
const codesOf = (links: Link[]) => links.map((found) => found.code);
const changeKeys = (changes: LinkChange[]) =>
  changes.map((change) => (change.kind === 'link' ? change.link.code : `-${change.tombstone.code}`));

/**
 * The behaviour every store behind the management API promises (owners, keys, listing, patch,
 * delete, tombstones). Run over memory, SQLite and PostgreSQL, as the `LinkStore` contract is,
 * and over the wrappers the server puts around them: a store with a redirect read (`lookup`, the
 * cache's) is checked against `findByCodeKey` at every read (see `freshStorePerTest`), so a cache
 * that serves a link as it was before a patch or a delete fails here.
 */
export function describeLinkManagementContract(name: string, factory: StoreFactory<ManagedLinkStore>): void {
  describe(`LinkManagementStore contract: ${name}`, () => {
    let store: ManagedLinkStore;
    freshStorePerTest(factory, (made) => {
      store = made;
    });

    it('shows a patch, a password and a delete to the very next redirect read', async () => {
      const read = (codeKey: string) => (store.lookup ? store.lookup(codeKey) : store.findByCodeKey(codeKey));
      await store.create(link('seen', { ownerId: 1 }), NOW);
      expect((await read('seen'))?.originalUrl).toBe(link('seen').originalUrl);
      await store.updateLink('seen', { ownerId: 1 }, { originalUrl: 'https://moved.example/' }, NOW + 1);
      expect((await read('seen'))?.originalUrl).toBe('https://moved.example/');
      await store.updateLink('seen', ALL, { passwordHash: hash(7) }, NOW + 2);
      const locked = await read('seen');
      expect(locked && isPasswordProtected(locked)).toBe(true);
      await store.updateLink('seen', ALL, { disabled: true }, NOW + 3);
      expect((await read('seen'))?.disabled).toBe(true);
      await store.updateLink('seen', ALL, { disabled: false, passwordHash: null }, NOW + 4);
      const open = await read('seen');
      expect(open && isPasswordProtected(open)).toBe(false);
      expect(await store.deleteLink('seen', ALL, NOW + 5)).toBe(true);
      expect(await read('seen')).toBeUndefined();
    });

    /** Creates links in order, each a millisecond newer, owned as given. */
    const makeLinks = async (codes: string[], ownerId?: number, from = NOW) => {
      for (const [i, code] of codes.entries()) {
        const made = link(code, { createdAt: from + i, ...(ownerId === undefined ? {} : { ownerId }) });
        expect((await store.create(made, from + i)).created).toBe(true);
      }
    };

    it('makes owners by name, keeps keys by hash only, and finds unrevoked keys', async () => {
      const first = await store.createKey('alice', hash(1), NOW);
      const second = await store.createKey('alice', hash(2), NOW + 1);
      const bob = await store.createKey('bob', hash(3), NOW + 2);
      expect(first).toEqual({ id: first.id, ownerId: first.ownerId, name: 'alice', createdAt: NOW, revoked: false });
      expect(second.ownerId).toBe(first.ownerId);
      expect(bob.ownerId).not.toBe(first.ownerId);
      expect(new Set([first.id, second.id, bob.id]).size).toBe(3);
      expect(await store.findKeyByHash(hash(2))).toEqual(second);
      expect(await store.findKeyByHash(hash(9))).toBeUndefined();
      expect((await store.listKeys()).map((key) => key.id).sort()).toEqual([first.id, second.id, bob.id].sort());
      expect(JSON.stringify(await store.listKeys())).not.toContain(hash(1));
    });

    it('revokes a key: no longer found, listed as revoked; an unknown id is false', async () => {
      const key = await store.createKey('alice', hash(1), NOW);
      expect(await store.revokeKey(key.id, NOW + 5)).toBe(true);
      expect(await store.revokeKey(key.id, NOW + 6)).toBe(true);
      expect(await store.findKeyByHash(hash(1))).toBeUndefined();
      expect((await store.listKeys())[0]?.revoked).toBe(true);
      expect(await store.revokeKey(key.id + 1000, NOW)).toBe(false);
    });

    it('writes last_used_at at most once a minute per key', async () => {
      const key = await store.createKey('alice', hash(1), NOW);
      await store.touchKey(key.id, NOW + 10);
      await store.touchKey(key.id, NOW + 10 + KEY_TOUCH_INTERVAL_MS - 1);
      expect((await store.findKeyByHash(hash(1)))?.lastUsedAt).toBe(NOW + 10);
      await store.touchKey(key.id, NOW + 10 + KEY_TOUCH_INTERVAL_MS);
      expect((await store.findKeyByHash(hash(1)))?.lastUsedAt).toBe(NOW + 10 + KEY_TOUCH_INTERVAL_MS);
    });

    it("keeps a link's owner, and lists each owner's links only, newest first", async () => {
      await makeLinks(['a1', 'a2'], 1);
      await makeLinks(['b1'], 2, NOW + 10);
      await makeLinks(['none'], undefined, NOW + 20);
      expect((await store.findByCodeKey('a1'))?.ownerId).toBe(1);
      expect((await store.findByCodeKey('none'))?.ownerId).toBeUndefined();
      expect(codesOf(await store.listLinks({ scope: { ownerId: 1 }, limit: 10, now: NOW }))).toEqual(['a2', 'a1']);
      expect(codesOf(await store.listLinks({ scope: { ownerId: 2 }, limit: 10, now: NOW }))).toEqual(['b1']);
      expect(codesOf(await store.listLinks({ scope: ALL, limit: 10, now: NOW }))).toEqual(['none', 'b1', 'a2', 'a1']);
    });

    it('pages 1,000 links in pages of 20, each exactly once, while new links are being made', async () => {
      await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          store.create(link(`p${i}`, { createdAt: NOW + Math.floor(i / 3), ownerId: 7 }), NOW),
        ),
      );
      const seen: string[] = [];
      let after: { createdAt: number; codeKey: string } | undefined;
      for (let page = 0; page < 60; page++) {
        const making = store.create(link(`new${page}`, { createdAt: NOW + 5000 + page, ownerId: 7 }), NOW);
        const links = await store.listLinks({
          scope: { ownerId: 7 },
          limit: 20,
          now: NOW,
          ...(after ? { after } : {}),
        });
        await making;
        seen.push(...codesOf(links).filter((code) => code.startsWith('p')));
        if (links.length < 20) break;
        const last = links[links.length - 1] as Link;
        after = { createdAt: last.createdAt, codeKey: last.codeKey };
      }
      expect(seen).toHaveLength(1000);
      expect(new Set(seen).size).toBe(1000);
    });

    it('searches code or URL, ignoring ASCII case, and filters by status', async () => {
      await store.create(link('Promo', { originalUrl: 'https://shop.example/Summer', ownerId: 1 }), NOW);
      await store.create(link('other', { originalUrl: 'https://blog.example/', ownerId: 1, createdAt: NOW + 1 }), NOW);
      await store.create(link('old', { expiresAt: NOW + 10, ownerId: 1, createdAt: NOW + 2 }), NOW);
      await store.create(link('off', { ownerId: 1, createdAt: NOW + 3 }), NOW);
      await store.updateLink('off', ALL, { disabled: true }, NOW + 5);
      const list = (extra: object) => store.listLinks({ scope: { ownerId: 1 }, limit: 10, now: NOW + 20, ...extra });
      expect(codesOf(await list({ search: 'promo' }))).toEqual(['Promo']);
      expect(codesOf(await list({ search: 'summer' }))).toEqual(['Promo']);
      expect(codesOf(await list({ search: 'example' }))).toEqual(['off', 'old', 'other', 'Promo']);
      expect(codesOf(await list({ search: '100%_' }))).toEqual([]);
      expect(codesOf(await list({ status: 'active' }))).toEqual(['other', 'Promo']);
      expect(codesOf(await list({ status: 'expired' }))).toEqual(['old']);
      expect(codesOf(await list({ status: 'disabled' }))).toEqual(['off']);
    });

    it('orders by each field both ways, pages by offset, and counts what it would list', async () => {
      const made = [
        { code: 'b', url: 'https://c.example/', title: 'Zebra', clicks: 5 },
        { code: 'A', url: 'https://a.example/', title: undefined, clicks: 0 },
        { code: '가', url: 'https://b.example/', title: 'apple', clicks: 9 },
        { code: 'c', url: 'https://a.example/', title: 'Zebra', clicks: 5 },
      ];
      for (const [i, entry] of made.entries()) {
        const options = { originalUrl: entry.url, ownerId: 1, createdAt: NOW + i };
        await store.create(
          link(entry.code, entry.title === undefined ? options : { ...options, title: entry.title }),
          NOW,
        );
      }
      await store.create(link('theirs', { ownerId: 2, createdAt: NOW + 9 }), NOW);
      await store.addClicks({ day: dayOf(NOW), codeKeys: ['b', '가', 'c'], counts: [5, 9, 5] });
      const scope = { ownerId: 1 };
      const ordered = (field: LinkOrderField, descending: boolean, extra: object = {}) =>
        store
          .listLinks({ scope, limit: 10, now: NOW + 20, order: { field, descending }, offset: 0, ...extra })
          .then(codesOf);
      expect(await ordered('created', false)).toEqual(['b', 'A', '가', 'c']);
      expect(await ordered('created', true)).toEqual(['c', '가', 'A', 'b']);
      expect(await ordered('code', false)).toEqual(['A', 'b', 'c', '가']);
      expect(await ordered('url', false)).toEqual(['A', 'c', '가', 'b']);
      expect(await ordered('url', true)).toEqual(['b', '가', 'c', 'A']);
      expect(await ordered('title', false)).toEqual(['A', 'b', 'c', '가']);
      expect(await ordered('clicks', true)).toEqual(['가', 'c', 'b', 'A']);
      expect(await ordered('clicks', false, { offset: 1, limit: 2 })).toEqual(['b', 'c']);
      expect(await ordered('code', false, { offset: 4 })).toEqual([]);
      const newest = (offset: number) => store.listLinks({ scope, limit: 3, now: NOW + 20, offset }).then(codesOf);
      expect([...(await newest(0)), ...(await newest(3))]).toEqual(['c', '가', 'A', 'b']);
      expect(await store.countLinks({ scope, now: NOW + 20 })).toEqual({ links: 4, clicks: 19 });
      expect(await store.countLinks({ scope: ALL, now: NOW + 20 })).toEqual({ links: 5, clicks: 19 });
      expect(await store.countLinks({ scope, now: NOW + 20, search: 'a.example' })).toEqual({ links: 2, clicks: 5 });
      expect(await store.countLinks({ scope: { ownerId: 3 }, now: NOW + 20 })).toEqual({ links: 0, clicks: 0 });
    });

    it('patches the target and the disabled flag, moving updatedAt forward', async () => {
      await store.create(link('edit', { ownerId: 1 }), NOW);
      const changed = await store.updateLink('edit', { ownerId: 1 }, { originalUrl: 'https://new.example/' }, NOW);
      expect(changed).toEqual({
        updated: true,
        link: { ...link('edit', { ownerId: 1 }), originalUrl: 'https://new.example/', updatedAt: NOW + 1 },
      });
      const disabled = await store.updateLink('edit', ALL, { disabled: true }, NOW + 100);
      expect(disabled.updated && disabled.link).toMatchObject({ disabled: true, updatedAt: NOW + 100 });
      expect(await store.findByCodeKey('edit')).toMatchObject({ originalUrl: 'https://new.example/', disabled: true });
      const enabled = await store.updateLink('edit', ALL, { disabled: false }, NOW + 200);
      expect(enabled.updated && enabled.link.disabled).toBeUndefined();
    });

    it("refuses to patch another owner's link, a missing one (not_found) and an expired one", async () => {
      await store.create(link('mine', { ownerId: 1 }), NOW);
      await store.create(link('gone', { ownerId: 1, expiresAt: NOW + 5 }), NOW);
      expect(await store.updateLink('mine', { ownerId: 2 }, { disabled: true }, NOW)).toEqual({
        updated: false,
        reason: 'not_found',
      });
      expect(await store.updateLink('nope', ALL, { disabled: true }, NOW)).toEqual({
        updated: false,
        reason: 'not_found',
      });
      expect(await store.updateLink('gone', { ownerId: 1 }, { disabled: true }, NOW + 5)).toEqual({
        updated: false,
        reason: 'expired',
      });
      expect((await store.findByCodeKey('mine'))?.disabled).toBeUndefined();
    });

    it('deletes a link: gone at once, its code free, a tombstone left; others cannot delete it', async () => {
      await store.create(link('bye', { ownerId: 1 }), NOW);
      expect(await store.deleteLink('bye', { ownerId: 2 }, NOW + 1)).toBe(false);
      expect(await store.deleteLink('bye', { ownerId: 1 }, NOW + 2)).toBe(true);
      expect(await store.deleteLink('bye', { ownerId: 1 }, NOW + 3)).toBe(false);
      expect(await store.findByCodeKey('bye')).toBeUndefined();
      const again = link('bye', { originalUrl: 'https://again.example/', createdAt: NOW + 4 });
      expect(await store.create(again, NOW + 4)).toEqual({ created: true, link: again });
      const changes = await store.listChanges({ scope: { ownerId: 1 }, limit: 10, since: NOW });
      expect(changes).toEqual([
        { kind: 'deleted', tombstone: { code: 'bye', codeKey: 'bye', ownerId: 1, deletedAt: NOW + 2 } },
      ]);
    });

    it('lets exactly one of many simultaneous deletes of one link succeed', async () => {
      await store.create(link('once'), NOW);
      const results = await Promise.all(Array.from({ length: 10 }, () => store.deleteLink('once', ALL, NOW + 1)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('lists changes since a moment, oldest first, tombstones included, page by page', async () => {
      await makeLinks(['c1', 'c2', 'c3'], 1);
      await store.create(link('other', { ownerId: 2, createdAt: NOW + 5 }), NOW);
      await store.updateLink('c1', ALL, { disabled: true }, NOW + 10);
      await store.deleteLink('c2', ALL, NOW + 11);
      const scope = { ownerId: 1 };
      expect(changeKeys(await store.listChanges({ scope, limit: 10, since: NOW + 1 }))).toEqual(['c3', 'c1', '-c2']);
      expect(changeKeys(await store.listChanges({ scope, limit: 10, since: NOW + 11 }))).toEqual(['-c2']);
      const first = await store.listChanges({ scope, limit: 2, since: NOW });
      expect(changeKeys(first)).toEqual(['c3', 'c1']);
      const rest = await store.listChanges({
        scope,
        limit: 2,
        since: NOW,
        after: { updatedAt: NOW + 10, codeKey: 'c1' },
      });
      expect(changeKeys(rest)).toEqual(['-c2']);
      expect(changeKeys(await store.listChanges({ scope: ALL, limit: 10, since: NOW + 5 }))).toEqual([
        'other',
        'c1',
        '-c2',
      ]);
    });

    it('keeps a created link’s own updatedAt (an import: made long ago, changed now), alone and in a group', async () => {
      const imported = link('imported', { createdAt: NOW - 86_400_000, updatedAt: NOW, ownerId: 1 });
      expect(await store.create(imported, NOW)).toEqual({ created: true, link: imported });
      // Several at once go through the stores' group commits.
      const group = ['g1', 'g2', 'g3'].map((code, i) => link(code, { createdAt: NOW - 1000 - i, updatedAt: NOW + 1 }));
      const results = await Promise.all(group.map((made) => store.create(made, NOW + 1)));
      expect(results).toEqual(group.map((made) => ({ created: true, link: made })));
      expect(await store.findByCodeKey('g2')).toEqual(group[1]);
      expect(changeKeys(await store.listChanges({ scope: ALL, limit: 10, since: NOW - 1 }))).toEqual([
        'imported',
        'g1',
        'g2',
        'g3',
      ]);
      expect(codesOf(await store.listLinks({ scope: ALL, limit: 10, now: NOW }))).toEqual([
        'g1',
        'g2',
        'g3',
        'imported',
      ]);
    });

    const TODAY = dayOf(NOW);
    const clicksOf = (code: string, createdAt = NOW) => store.clicksOf(code, createdAt, 0);

    it('adds click batches to the links holding their codes: totals, days, and every listing', async () => {
      await makeLinks(['c1', 'c2']);
      await store.addClicks({ day: TODAY - 1, codeKeys: ['c1'], counts: [4] });
      await store.addClicks({ day: TODAY, codeKeys: ['c1', 'c2', 'nobody'], counts: [3, 5, 7] });
      await store.addClicks({ day: TODAY, codeKeys: ['c1'], counts: [1] });
      expect(await clicksOf('c1')).toEqual({
        total: 8,
        days: [
          { day: TODAY - 1, clicks: 4 },
          { day: TODAY, clicks: 4 },
        ],
      });
      expect(await store.clicksOf('c1', NOW, TODAY)).toEqual({ total: 8, days: [{ day: TODAY, clicks: 4 }] });
      expect(await clicksOf('c2', NOW + 1)).toEqual({ total: 5, days: [{ day: TODAY, clicks: 5 }] });
      expect(await clicksOf('nobody')).toEqual({ total: 0, days: [] });
      const listed = await store.listLinks({ scope: ALL, limit: 10, now: NOW });
      expect(listed.map(({ code, clicks }) => [code, clicks])).toEqual([
        ['c2', 5],
        ['c1', 8],
      ]);
      const changes = await store.listChanges({ scope: ALL, limit: 10, since: 0 });
      expect(changes.map((change) => change.kind === 'link' && change.link.clicks)).toEqual([8, 5]);
      const patched = await store.updateLink('c1', ALL, { disabled: true }, NOW + 10);
      expect(patched.updated && patched.link.clicks).toBe(8);
    });

    it('adds up concurrent batches exactly (increments, never overwrites)', async () => {
      await makeLinks(['hot', 'warm']);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.addClicks({ day: TODAY, codeKeys: ['hot', 'warm'], counts: [i + 1, 1] }),
        ),
      );
      expect(await clicksOf('hot')).toEqual({ total: 210, days: [{ day: TODAY, clicks: 210 }] });
      expect((await clicksOf('warm', NOW + 1)).total).toBe(20);
    });

    it("starts a new link's clicks from 0 when its code is taken over after expiry or deleted", async () => {
      const old = link('again', { expiresAt: NOW + 1000 });
      await store.create(old, NOW);
      await store.addClicks({ day: TODAY, codeKeys: ['again'], counts: [9] });
      const taker = link('again', { createdAt: NOW + 2000, expiresAt: NOW + 86_400_000 });
      expect((await store.create(taker, NOW + 2000)).created).toBe(true);
      expect(await clicksOf('again', NOW + 2000)).toEqual({ total: 0, days: [] });
      expect((await store.listLinks({ scope: ALL, limit: 1, now: NOW }))[0]?.clicks).toBeUndefined();
      await store.addClicks({ day: TODAY, codeKeys: ['again'], counts: [2] });
      expect(await clicksOf('again', NOW + 2000)).toEqual({ total: 2, days: [{ day: TODAY, clicks: 2 }] });

      expect(await store.deleteLink('again', ALL, NOW + 3000)).toBe(true);
      await store.create(link('again', { createdAt: NOW + 4000 }), NOW + 4000);
      expect(await clicksOf('again', NOW + 4000)).toEqual({ total: 0, days: [] });
    });

    it("shows none of a previous holder's days to a link that retakes its code with the same creation time", async () => {
      // An import may choose created_at, and the 410 page gives the expiry: the same code and
      // creation time must still be another link, with its own history.
      const alices = link('hers', { createdAt: NOW, expiresAt: NOW + 1000, ownerId: 1 });
      await store.create(alices, NOW);
      await store.addClicks({ day: TODAY - 1, codeKeys: ['hers'], counts: [5] });
      await store.addClicks({ day: TODAY, codeKeys: ['hers'], counts: [2] });
      expect((await clicksOf('hers')).days).toHaveLength(2);
      const bobs = link('hers', { createdAt: NOW, expiresAt: NOW + 86_400_000, ownerId: 2, updatedAt: NOW + 2000 });
      expect((await store.create(bobs, NOW + 2000)).created).toBe(true);
      expect(await clicksOf('hers')).toEqual({ total: 0, days: [] });
      await store.addClicks({ day: TODAY, codeKeys: ['hers'], counts: [1] });
      expect(await clicksOf('hers')).toEqual({ total: 1, days: [{ day: TODAY, clicks: 1 }] });
    });

    it("drops a deleted link's days: the code made again, even at the same creation time, starts with none", async () => {
      await makeLinks(['gone']);
      await store.addClicks({ day: TODAY, codeKeys: ['gone'], counts: [3] });
      expect(await store.deleteLink('gone', ALL, NOW + 10)).toBe(true);
      expect(await clicksOf('gone')).toEqual({ total: 0, days: [] });
      expect((await store.create(link('gone', { createdAt: NOW }), NOW + 20)).created).toBe(true);
      expect(await clicksOf('gone')).toEqual({ total: 0, days: [] });
    });

    it(`keeps ${CLICK_DAYS_KEPT} days back from the newest batch's day and purges older ones`, async () => {
      await makeLinks(['aged']);
      const start = TODAY - 200;
      await store.addClicks({ day: start, codeKeys: ['aged'], counts: [1] });
      await store.addClicks({ day: start + 1, codeKeys: ['aged'], counts: [2] });
      await store.addClicks({ day: start + 1 + CLICK_DAYS_KEPT, codeKeys: ['aged'], counts: [3] });
      expect(await clicksOf('aged')).toEqual({
        total: 6,
        days: [
          { day: start + 1, clicks: 2 },
          { day: start + 1 + CLICK_DAYS_KEPT, clicks: 3 },
        ],
      });
    });

    it('has a signing secret that stays the same', async () => {
      const secret = await store.signingSecret();
      expect(secret.length).toBeGreaterThanOrEqual(32);
      expect(await store.signingSecret()).toBe(secret);
    });
  });
}
