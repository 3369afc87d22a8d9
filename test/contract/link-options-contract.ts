import { describe, expect, it } from 'vitest';
import { dayOf } from '../../core/rules/clicks.js';
import { type ManagedLinkStore, type OwnerScope, searchKey } from '../../core/store/link-management-store.js';
import type { Link } from '../../core/store/link-store.js';
import { freshStorePerTest, type StoreFactory } from './fresh-store.js';
import { link, NOW } from './link-store-contract.js';

const ALL: OwnerScope = { all: true };
const DAY = 86_400_000;
const codesOf = (links: Link[]) => links.map((found) => found.code);

/**
 * Titles, tags and renewal as every store behind the management API keeps them: run
 * over memory, SQLite and PostgreSQL next to `describeLinkManagementContract`.
 */
export function describeLinkOptionsContract(name: string, factory: StoreFactory<ManagedLinkStore>): void {
  describe(`link options contract: ${name}`, () => {
    let store: ManagedLinkStore;
    freshStorePerTest(factory, (made) => {
      store = made;
    });

    it('keeps a title and tags from the create, in order, and leaves them out of links without', async () => {
      await store.create(link('labelled', { ownerId: 1, title: '회의 notes', tags: ['work', '한글', 'q_1-a'] }), NOW);
      await store.create(link('plain', { ownerId: 1, createdAt: NOW + 1 }), NOW + 1);
      const found = await store.findByCodeKey('labelled');
      expect(found?.title).toBe('회의 notes');
      expect(found?.tags).toEqual(['work', '한글', 'q_1-a']);
      const plain = await store.findByCodeKey('plain');
      expect(plain && 'title' in plain).toBe(false);
      expect(plain && 'tags' in plain).toBe(false);
      const listed = await store.listLinks({ scope: { ownerId: 1 }, limit: 10, now: NOW + 2 });
      expect(listed.map((one) => [one.code, one.title, one.tags])).toEqual([
        ['plain', undefined, undefined],
        ['labelled', '회의 notes', ['work', '한글', 'q_1-a']],
      ]);
    });

    it('patches the title and the whole tag list, clears them, and leaves what the patch does not name', async () => {
      await store.create(link('edit', { title: 'Old', tags: ['a', 'b'] }), NOW);
      const retitled = await store.updateLink('edit', ALL, { title: 'New' }, NOW + 1);
      expect(retitled.updated && [retitled.link.title, retitled.link.tags]).toEqual(['New', ['a', 'b']]);
      const retagged = await store.updateLink('edit', ALL, { tags: ['c'] }, NOW + 2);
      expect(retagged.updated && [retagged.link.title, retagged.link.tags]).toEqual(['New', ['c']]);
      await store.updateLink('edit', ALL, { title: null, tags: [] }, NOW + 3);
      const cleared = await store.findByCodeKey('edit');
      expect(cleared?.title).toBeUndefined();
      expect(cleared?.tags).toBeUndefined();
      expect(cleared?.originalUrl).toBe('https://example.com/edit');
    });

    it('finds Hangul in titles and codes by a search typed decomposed (NFD), as the API hands it over', async () => {
      await store.create(link('한글', { ownerId: 1, title: '분기 보고서' }), NOW);
      const list = (typed: string) =>
        store.listLinks({ scope: { ownerId: 1 }, limit: 10, now: NOW + 1, search: searchKey(typed) }).then(codesOf);
      expect(await list('보고서'.normalize('NFD'))).toEqual(['한글']);
      expect(await list('한글'.normalize('NFD'))).toEqual(['한글']);
      expect(await list('보고서')).toEqual(['한글']);
    });

    it('folds only ASCII letters when searching, so a term copied from a title with É or Ü finds it', async () => {
      await store.create(link('ecole', { ownerId: 1, title: 'École Über Straße' }), NOW);
      const list = (typed: string) =>
        store.listLinks({ scope: { ownerId: 1 }, limit: 10, now: NOW + 1, search: searchKey(typed) }).then(codesOf);
      expect(await list('École')).toEqual(['ecole']);
      expect(await list('ÉCOLE ÜBER STRAßE')).toEqual(['ecole']); // the ASCII letters fold
      expect(await list('école')).toEqual([]); // É does not: the rule is ASCII case only
      expect(await list('straße')).toEqual(['ecole']);
    });

    it('lists the links of one tag and finds titles by search', async () => {
      await store.create(link('t1', { ownerId: 1, title: 'Quarterly Report', tags: ['work'] }), NOW);
      await store.create(link('t2', { ownerId: 1, createdAt: NOW + 1, tags: ['home', 'work'] }), NOW + 1);
      await store.create(link('t3', { ownerId: 1, createdAt: NOW + 2, tags: ['workshop'] }), NOW + 2);
      await store.create(link('t4', { ownerId: 2, createdAt: NOW + 3, tags: ['work'] }), NOW + 3);
      const list = (query: { tag?: string; search?: string }, scope: OwnerScope = { ownerId: 1 }) =>
        store.listLinks({ scope, limit: 10, now: NOW + 10, ...query }).then(codesOf);
      expect(await list({ tag: 'work' })).toEqual(['t2', 't1']);
      expect(await list({ tag: 'work' }, ALL)).toEqual(['t4', 't2', 't1']);
      expect(await list({ tag: 'home' })).toEqual(['t2']);
      expect(await list({ tag: 'wor' })).toEqual([]);
      expect(await list({ search: 'quarterly' })).toEqual(['t1']);
      expect(await list({ search: 'report', tag: 'home' })).toEqual([]);
    });

    it('counts each tag of the scope: links and their clicks, expired links too', async () => {
      await store.create(link('c1', { ownerId: 1, tags: ['news', 'x'] }), NOW);
      await store.create(link('c2', { ownerId: 1, createdAt: NOW + 1, expiresAt: NOW + 2, tags: ['news'] }), NOW + 1);
      await store.create(link('c3', { ownerId: 2, createdAt: NOW + 2, tags: ['news'] }), NOW + 2);
      await store.create(link('c4', { ownerId: 1, createdAt: NOW + 3 }), NOW + 3);
      await store.addClicks({ day: dayOf(NOW), codeKeys: ['c1', 'c2', 'c3'], counts: [3, 4, 5] });
      const sorted = (tags: Awaited<ReturnType<ManagedLinkStore['listTags']>>) =>
        [...tags].sort((a, b) => (a.tag < b.tag ? -1 : 1));
      expect(sorted(await store.listTags({ ownerId: 1 }))).toEqual([
        { tag: 'news', links: 2, clicks: 7, bots: 0 },
        { tag: 'x', links: 1, clicks: 3, bots: 0 },
      ]);
      expect(sorted(await store.listTags(ALL))[0]).toEqual({ tag: 'news', links: 3, clicks: 12, bots: 0 });
      expect(await store.listTags({ ownerId: 3 })).toEqual([]);
    });

    it('renews an expired link: active again with its clicks, and a disabled one stays disabled', async () => {
      await store.create(link('old', { ownerId: 1, expiresAt: NOW + DAY, title: 'Kept' }), NOW);
      await store.create(link('off', { ownerId: 1, createdAt: NOW + 1, expiresAt: NOW + DAY }), NOW + 1);
      await store.addClicks({ day: dayOf(NOW), codeKeys: ['old'], counts: [2] });
      await store.updateLink('off', { ownerId: 1 }, { disabled: true }, NOW + 2);
      const later = NOW + 2 * DAY;
      expect(await store.updateLink('old', { ownerId: 1 }, { title: 'No' }, later)).toEqual({
        updated: false,
        reason: 'expired',
      });
      const renewed = await store.updateLink('old', { ownerId: 1 }, { expiresAt: later + DAY }, later);
      expect(renewed.updated && renewed.link).toMatchObject({ expiresAt: later + DAY, title: 'Kept', clicks: 2 });
      expect((await store.findByCodeKey('old'))?.expiresAt).toBe(later + DAY);
      const active = await store.listLinks({ scope: { ownerId: 1 }, limit: 10, status: 'active', now: later });
      expect(codesOf(active)).toEqual(['old']);
      const off = await store.updateLink('off', { ownerId: 1 }, { expiresAt: later + DAY }, later);
      expect(off.updated && off.link.disabled).toBe(true);
      expect(await store.updateLink('old', { ownerId: 2 }, { expiresAt: later + DAY }, later)).toEqual({
        updated: false,
        reason: 'not_found',
      });
    });

    it('renews an active link to now plus the duration, even to an earlier expiry', async () => {
      await store.create(link('soon', { expiresAt: NOW + 30 * DAY }), NOW);
      const renewed = await store.updateLink('soon', ALL, { expiresAt: NOW + 1 + DAY }, NOW + 1);
      expect(renewed.updated && renewed.link.expiresAt).toBe(NOW + 1 + DAY);
    });

    it('cannot renew a code someone retook: the old link is gone, and the new holder starts without labels', async () => {
      await store.create(link('taken', { ownerId: 1, expiresAt: NOW + 1, title: 'Mine', tags: ['a'] }), NOW);
      await store.create(link('taken', { ownerId: 2, createdAt: NOW + 5 }), NOW + 5);
      expect(await store.updateLink('taken', { ownerId: 1 }, { expiresAt: NOW + DAY }, NOW + 6)).toEqual({
        updated: false,
        reason: 'not_found',
      });
      const holder = await store.findByCodeKey('taken');
      expect([holder?.ownerId, holder?.title, holder?.tags]).toEqual([2, undefined, undefined]);
      expect(await store.listTags(ALL)).toEqual([]);
    });
  });
}
