import { describe, expect, it } from 'vitest';
import type { VisitRow } from '../../core/management/visits/visits.js';
import { dayOf } from '../../core/rules/clicks.js';
import type { ManagedLinkStore, OwnerScope } from '../../core/store/link-management-store.js';
import { freshStorePerTest, type StoreFactory } from './fresh-store.js';
import { link, NOW } from './link-store-contract.js';

const ALL: OwnerScope = { all: true };
const ALICE: OwnerScope = { ownerId: 1 };
const TODAY = dayOf(NOW);
const LATER = NOW + 400 * 86_400_000;

const visit = (codeKey: string, bot = false): VisitRow => ({
  codeKey,
  at: Math.floor(NOW / 1000),
  referrer: 'news.example',
  country: 'KR',
  userAgent: bot ? 'Googlebot/2.1' : 'Mozilla/5.0 (Windows NT 10.0) Chrome/131.0',
  browser: bot ? null : 'Chrome',
  os: bot ? null : 'Windows',
  device: bot ? null : 'desktop',
  bot,
});

/**
 * Edits of many rows at once, as every store behind the management API makes them: a tag
 * renamed (merged where the new name is there already) or deleted on all of a scope's links, and
 * a link's visits and counts deleted; each changed link's `updatedAt` moves so devices sync it,
 * and an owner's scope never reaches another owner's links.
 */
export function describeBulkEditsContract(name: string, factory: StoreFactory<ManagedLinkStore>): void {
  describe(`bulk edits contract: ${name}`, () => {
    let store: ManagedLinkStore;
    freshStorePerTest(factory, (made) => {
      store = made;
    });
    const tagsOf = async (code: string) => (await store.findByCodeKey(code))?.tags;
    const make = (code: string, ownerId: number | undefined, tags: string[], createdAt = NOW) =>
      store.create(
        link(code, { createdAt, expiresAt: LATER, tags, ...(ownerId !== undefined && { ownerId }) }),
        createdAt,
      );

    it("renames a tag in place on the owner's links only, merging where the new name is there already", async () => {
      await make('a1', 1, ['work', 'q1', 'home']);
      await make('a2', 1, ['q1', 'work']);
      await make('a3', 1, ['home']);
      await make('b1', 2, ['work']);
      expect(await store.renameTag(ALICE, 'work', 'job', NOW + 10)).toBe(2);
      expect(await tagsOf('a1')).toEqual(['job', 'q1', 'home']);
      expect(await tagsOf('a2')).toEqual(['q1', 'job']);
      expect(await tagsOf('a3')).toEqual(['home']);
      expect(await tagsOf('b1')).toEqual(['work']);
      // Merging: a1 carries both q1 and job; job stays once, where q1 was first.
      expect(await store.renameTag(ALICE, 'job', 'q1', NOW + 11)).toBe(2);
      expect(await tagsOf('a1')).toEqual(['q1', 'home']);
      expect(await tagsOf('a2')).toEqual(['q1']);
      const tags = (await store.listTags(ALICE)).map((tag) => [tag.tag, tag.links]).sort();
      expect(tags).toEqual([
        ['home', 2],
        ['q1', 2],
      ]);
      expect(await store.renameTag(ALICE, 'nothing', 'else', NOW + 12)).toBe(0);
    });

    it('renames and deletes across every owner for the administrator, links of any status included', async () => {
      await make('x1', 1, ['old']);
      await make('x2', 2, ['old', 'keep']);
      await make('x3', undefined, ['keep']);
      await store.updateLink('x1', ALL, { disabled: true }, NOW + 1);
      expect(await store.renameTag(ALL, 'old', 'new', NOW + 10)).toBe(2);
      expect(await tagsOf('x1')).toEqual(['new']);
      expect(await tagsOf('x2')).toEqual(['new', 'keep']);
      expect(await store.deleteTag(ALL, 'keep', NOW + 11)).toBe(2);
      expect(await tagsOf('x2')).toEqual(['new']);
      expect(await tagsOf('x3')).toBeUndefined();
      const linkTags = (await store.listLinks({ scope: ALL, limit: 10, now: NOW + 12, tag: 'keep' })).length;
      expect(linkTags).toBe(0);
    });

    it("deletes a tag from the owner's links alone, a link left without tags having none", async () => {
      await make('d1', 1, ['gone']);
      await make('d2', 1, ['stay', 'gone']);
      await make('d3', 2, ['gone']);
      expect(await store.deleteTag(ALICE, 'gone', NOW + 10)).toBe(2);
      expect(await tagsOf('d1')).toBeUndefined();
      expect(await tagsOf('d2')).toEqual(['stay']);
      expect(await tagsOf('d3')).toEqual(['gone']);
      expect(await store.deleteTag(ALICE, 'gone', NOW + 11)).toBe(0);
    });

    it('moves each changed link forward in the change list (and no other), so devices sync it', async () => {
      await make('c1', 1, ['t']);
      await make('c2', 1, ['u']);
      await make('c3', 1, ['t'], NOW + 1);
      await store.renameTag(ALICE, 't', 'v', NOW + 100);
      const changes = await store.listChanges({ scope: ALICE, limit: 10, since: NOW + 50 });
      const changed = changes.map((change) => (change.kind === 'link' ? change.link.code : change.tombstone.code));
      expect(changed.sort()).toEqual(['c1', 'c3']);
      for (const change of changes)
        if (change.kind === 'link') expect(change.link.updatedAt).toBeGreaterThanOrEqual(NOW + 100);
    });

    it("deletes a link's clicks, days, visits and bot counts, answers how many, and keeps others' and later ones", async () => {
      await make('v1', 1, []);
      await make('v2', 1, []);
      await store.addClicks({
        day: TODAY,
        codeKeys: ['v1', 'v2'],
        counts: [2, 1],
        visits: [visit('v1'), visit('v1'), visit('v1', true), visit('v2')],
      });
      expect(await store.deleteVisits('v1', { ownerId: 2 }, NOW + 10)).toBeUndefined();
      expect(await store.deleteVisits('none', ALL, NOW + 10)).toBeUndefined();
      expect(await store.deleteVisits('v1', ALICE, NOW + 10)).toBe(3);
      const v1 = await store.findByCodeKey('v1');
      expect(await store.clicksOf('v1', NOW, TODAY - 1)).toEqual({ total: 0, days: [] });
      expect(await store.listVisits('v1', NOW, 10)).toEqual([]);
      expect(await store.visitTalliesOf('v1', NOW, TODAY - 1, TODAY + 1)).toEqual({ bots: 0, tallies: [] });
      expect(v1?.updatedAt).toBeGreaterThanOrEqual(NOW + 10);
      const [listed] = await store.listLinks({ scope: ALICE, limit: 1, now: NOW + 11, search: 'v1' });
      expect(listed?.clicks ?? 0).toBe(0);
      expect((await store.clicksOf('v2', NOW, TODAY)).total).toBe(1);
      expect(await store.listVisits('v2', NOW, 10)).toHaveLength(1);
      // Clicks written after the deletion count from zero; again deletes those alone.
      await store.addClicks({ day: TODAY, codeKeys: ['v1'], counts: [1], visits: [visit('v1')] });
      expect(await store.clicksOf('v1', NOW, TODAY)).toEqual({ total: 1, days: [{ day: TODAY, clicks: 1 }] });
      expect(await store.deleteVisits('v1', ALL, NOW + 20)).toBe(1);
      expect(await store.deleteVisits('v1', ALL, NOW + 21)).toBe(0);
    });

    it('deletes the visits of an expired link too (its row is still its own)', async () => {
      await store.create(link('old', { ownerId: 1, expiresAt: NOW + 5 }), NOW);
      await store.addClicks({ day: TODAY, codeKeys: ['old'], counts: [4] });
      expect(await store.deleteVisits('old', ALICE, NOW + 10)).toBe(4);
      expect((await store.clicksOf('old', NOW, TODAY)).total).toBe(0);
    });
  });
}
