import { describe, expect, it } from 'vitest';
import {
  FOLD_PER_BATCH,
  type StoredVisit,
  type VisitRow,
  type VisitTallies,
} from '../../core/management/visits/visits.js';
import { dayOf } from '../../core/rules/clicks.js';
import type { ManagedLinkStore, TagCount } from '../../core/store/link-management-store.js';
import type { Link } from '../../core/store/link-store.js';
import { freshStorePerTest, type StoreFactory } from './fresh-store.js';
import { link, NOW } from './link-store-contract.js';

const TODAY = dayOf(NOW);
const AT = Math.floor(NOW / 1000);

const visit = (codeKey: string, overrides: Partial<VisitRow> = {}): VisitRow => ({
  codeKey,
  at: AT,
  referrer: 'news.example',
  country: 'KR',
  userAgent: 'Mozilla/5.0 (Windows NT 10.0) Chrome/131.0',
  browser: 'Chrome',
  os: 'Windows',
  device: 'desktop',
  bot: false,
  ...overrides,
});

/** Tallies in one order, for comparing stores. */
/** Tallies in one order (dimension, then name), so stores that list ties differently compare alike. */
export const sortedTallies = (tallies: VisitTallies): VisitTallies => ({
  bots: tallies.bots,
  tallies: [...tallies.tallies].sort((a, b) => `${a.dimension} ${a.name}`.localeCompare(`${b.dimension} ${b.name}`)),
});

/**
 * Visits, as every store behind the management API keeps them: written with click batches under
 * the link holding the code, listed newest first, tallied per dimension (bots apart), folded
 * past their retention into daily counts that tally the same, and gone with their link.
 */
export function describeVisitContract(name: string, factory: StoreFactory<ManagedLinkStore>): void {
  describe(`visits contract: ${name}`, () => {
    let store: ManagedLinkStore;
    freshStorePerTest(factory, (made) => {
      store = made;
    });
    const make = async (code: string, createdAt = NOW) => {
      expect(
        (await store.create(link(code, { createdAt, expiresAt: NOW + 400 * 86_400_000 }), createdAt)).created,
      ).toBe(true);
    };

    it('writes visits with their clicks, skips codes no link holds, and tallies bots apart', async () => {
      await make('v1');
      await store.addClicks({
        day: TODAY,
        codeKeys: ['v1', 'nobody'],
        counts: [3, 1],
        visits: [
          visit('v1'),
          visit('v1', { at: AT + 1, referrer: 'direct', country: null }),
          visit('v1', {
            at: AT + 2,
            referrer: null,
            country: null,
            userAgent: null,
            browser: null,
            os: null,
            device: null,
          }),
          visit('v1', { at: AT + 3, bot: true, browser: null, os: null, device: null }),
          visit('nobody'),
        ],
      });
      expect((await store.clicksOf('v1', NOW, 0)).total).toBe(3);
      expect(sortedTallies(await store.visitTalliesOf('v1', NOW, TODAY, TODAY))).toEqual({
        bots: 1,
        tallies: [
          { dimension: 'browser', name: 'Chrome', clicks: 2 },
          { dimension: 'browser', name: 'unknown', clicks: 1 },
          { dimension: 'country', name: 'KR', clicks: 1 },
          { dimension: 'country', name: 'unknown', clicks: 2 },
          { dimension: 'device', name: 'desktop', clicks: 2 },
          { dimension: 'device', name: 'unknown', clicks: 1 },
          { dimension: 'os', name: 'unknown', clicks: 1 },
          { dimension: 'os', name: 'Windows', clicks: 2 },
          { dimension: 'referrer', name: 'direct', clicks: 1 },
          { dimension: 'referrer', name: 'news.example', clicks: 1 },
          { dimension: 'referrer', name: 'unknown', clicks: 1 },
        ],
      });
      expect(await store.visitTalliesOf('v1', NOW, TODAY + 1, TODAY + 5)).toEqual({ bots: 0, tallies: [] });
      expect(await store.visitTalliesOf('nobody', NOW, TODAY, TODAY)).toEqual({ bots: 0, tallies: [] });
      // Another link (a later creation time) under the code is not this one.
      expect(await store.visitTalliesOf('v1', NOW + 1, TODAY, TODAY)).toEqual({ bots: 0, tallies: [] });
    });

    it("puts each link's clicks and visits under it, whatever order its code, its age and the batch give", async () => {
      // Links made in one order, codes that sort in another, a batch in a third: a writer that
      // reorders its work (to sweep its tables) must still put every count and visit where it goes.
      const codes = Array.from({ length: 24 }, (_, i) => `m${String((i * 7) % 24).padStart(2, '0')}`);
      for (const [i, code] of codes.entries()) await make(code, NOW + i);
      const clicked = [...codes.slice(12), 'nobody', ...codes.slice(0, 12).reverse()];
      const n = (code: string) => (code === 'nobody' ? 0 : Number(code.slice(1)));
      const countryOf = (code: string) => `A${String.fromCharCode(65 + n(code))}`;
      await store.addClicks({
        day: TODAY,
        codeKeys: clicked,
        counts: clicked.map((code) => n(code) + 1),
        visits: clicked.flatMap((code) =>
          Array.from({ length: n(code) + 1 }, (_, j) => visit(code, { at: AT + j, country: countryOf(code) })),
        ),
      });
      for (const [i, code] of codes.entries()) {
        expect((await store.clicksOf(code, NOW + i, 0)).total, code).toBe(n(code) + 1);
        const { tallies } = await store.visitTalliesOf(code, NOW + i, TODAY, TODAY);
        expect(
          tallies.filter(({ dimension }) => dimension === 'country'),
          code,
        ).toEqual([{ dimension: 'country', name: countryOf(code), clicks: n(code) + 1 }]);
        const visits = await store.listVisits(code, NOW + i, 50);
        expect(
          visits.map((one) => one.country),
          code,
        ).toEqual(Array(n(code) + 1).fill(countryOf(code)));
      }
    });

    it('lists visits newest first, page by page, with what was kept of each and nothing else', async () => {
      await make('paged');
      const visits = Array.from({ length: 5 }, (_, i) =>
        visit('paged', { at: AT + (i < 2 ? 0 : i), country: `A${'BCDEF'[i]}` }),
      );
      await store.addClicks({ day: TODAY, codeKeys: ['paged'], counts: [5], visits });
      const first = await store.listVisits('paged', NOW, 3);
      expect(first.map((v) => v.country)).toEqual(['AF', 'AE', 'AD']);
      expect(first[0]).toEqual({
        id: expect.any(Number),
        at: (AT + 4) * 1000,
        referrer: 'news.example',
        country: 'AF',
        userAgent: 'Mozilla/5.0 (Windows NT 10.0) Chrome/131.0',
        browser: 'Chrome',
        os: 'Windows',
        device: 'desktop',
        bot: false,
      });
      const last = first.at(-1);
      const rest = await store.listVisits('paged', NOW, 3, last && { at: last.at, id: last.id });
      // The two of the same second come in id order, newest (highest) first.
      expect(rest.map((v) => v.country)).toEqual(['AC', 'AB']);
      expect(await store.listVisits('paged', NOW + 1, 3)).toEqual([]);
    });

    it('walks every visit exactly once in pages smaller than a batch, within a second and across batches', async () => {
      await make('walk');
      // One batch's visits of a link are stored together (in one row, where packed): pages end inside it.
      const batch = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) =>
          visit('walk', { at: AT + from + Math.floor(i / 4), country: `C${from + i}`, bot: i % 9 === 4 }),
        );
      const first = batch(0, 23);
      const second = batch(3, 14); // overlapping the first's seconds, as another instance's batch may
      await store.addClicks({ day: TODAY, codeKeys: ['walk'], counts: [23], visits: first });
      await store.addClicks({ day: TODAY, codeKeys: ['walk'], counts: [14], visits: second });
      const walked: StoredVisit[] = [];
      for (let page = await store.listVisits('walk', NOW, 4); page.length > 0; ) {
        expect(page.length).toBeLessThanOrEqual(4);
        walked.push(...page);
        const last = page.at(-1) as StoredVisit;
        page = await store.listVisits('walk', NOW, 4, { at: last.at, id: last.id });
      }
      expect(new Set(walked.map((v) => v.id)).size).toBe(37);
      expect(walked.map((v) => v.country).sort()).toEqual([...first, ...second].map((v) => v.country).sort());
      const newestFirst = [...walked].sort((a, b) => b.at - a.at || b.id - a.id);
      expect(walked).toEqual(newestFirst);
      expect(await store.listVisits('walk', NOW, 37)).toEqual(walked);
    });

    it('folds visits past the retention into daily counts, a bounded number per batch, and tallies them the same', async () => {
      await make('old');
      const old = FOLD_PER_BATCH + 5;
      const before = Array.from({ length: old }, (_, i) =>
        visit('old', { at: AT - 86_400 + i, bot: i === 0, referrer: i % 2 ? 'direct' : 'news.example' }),
      );
      await store.addClicks({ day: TODAY - 1, codeKeys: ['old'], counts: [old - 1], visits: before });
      const whole = sortedTallies(await store.visitTalliesOf('old', NOW, TODAY - 1, TODAY));
      const fold = () => store.addClicks({ day: TODAY, codeKeys: [], counts: [], foldBefore: AT });
      await fold();
      await fold();
      expect(await store.listVisits('old', NOW, 10)).toEqual([]);
      expect(sortedTallies(await store.visitTalliesOf('old', NOW, TODAY - 1, TODAY))).toEqual(whole);
      expect(sortedTallies(await store.visitTalliesOf('old', NOW, TODAY - 1, TODAY - 1))).toEqual(whole);
      expect(await store.visitTalliesOf('old', NOW, TODAY, TODAY)).toEqual({ bots: 0, tallies: [] });
      // More folds (and new visits) add up rather than overwrite.
      await store.addClicks({
        day: TODAY,
        codeKeys: ['old'],
        counts: [1],
        visits: [visit('old', { at: AT - 10, referrer: 'direct' })],
        foldBefore: AT,
      });
      await fold();
      const after = await store.visitTalliesOf('old', NOW, TODAY - 1, TODAY);
      const direct = after.tallies.find((t) => t.dimension === 'referrer' && t.name === 'direct');
      expect(direct?.clicks).toBe(Math.floor(old / 2) + 1);
    });

    it("adds up bot visits over the links counted and per tag, each link's own over all its days", async () => {
      const owned = async (code: string, overrides: Partial<Link>) => {
        const createdAt = overrides.createdAt ?? NOW;
        const made = link(code, { createdAt, expiresAt: NOW + 400 * 86_400_000, ...overrides });
        expect((await store.create(made, createdAt)).created).toBe(true);
      };
      const bots = (code: string, count: number, at = AT) =>
        Array.from({ length: count }, (_, i) => visit(code, { at: at + i, bot: true, browser: null }));
      await owned('b1', { ownerId: 1, tags: ['news'] });
      await owned('b2', { ownerId: 1, tags: ['news', 'x'] });
      await owned('b3', { ownerId: 1, tags: ['x'], expiresAt: NOW + 10 });
      await owned('theirs', { ownerId: 2, tags: ['news'] });
      await owned('gone', { ownerId: 1, tags: ['news'] });
      await owned('retaken', { ownerId: 1, tags: ['news'], expiresAt: NOW + 10 });
      // Yesterday's visits folded into their daily counts, today's still kept: both count.
      await store.addClicks({
        day: TODAY - 1,
        codeKeys: ['b1'],
        counts: [1],
        visits: [...bots('b1', 1, AT - 86_400), visit('b1', { at: AT - 86_400 + 5 })],
      });
      await store.addClicks({ day: TODAY, codeKeys: [], counts: [], foldBefore: AT - 3600 });
      await store.addClicks({
        day: TODAY,
        codeKeys: ['b1', 'theirs'],
        counts: [1, 2],
        visits: [
          ...bots('b1', 1),
          visit('b1'),
          ...bots('b2', 3),
          ...bots('b3', 1),
          ...bots('theirs', 4),
          visit('theirs'),
          visit('theirs'),
          ...bots('gone', 5),
          ...bots('retaken', 6),
        ],
      });
      // A deleted code made again, and an expired one retaken: neither holder had a bot visit.
      expect(await store.deleteLink('gone', { all: true }, NOW + 12)).toBe(true);
      await owned('gone', { ownerId: 1, tags: ['news'], createdAt: NOW + 13 });
      await owned('retaken', { ownerId: 1, tags: ['news'], createdAt: NOW + 14 });

      const mine = { ownerId: 1 };
      const now = NOW + 20;
      expect(await store.countLinks({ scope: mine, now })).toEqual({ links: 5, clicks: 2 });
      expect(await store.countBots({ scope: mine, now })).toBe(6);
      expect(await store.countLinks({ scope: { all: true }, now })).toEqual({ links: 6, clicks: 4 });
      expect(await store.countBots({ scope: { all: true }, now })).toBe(10);
      expect(await store.countLinks({ scope: mine, now, status: 'active' })).toEqual({ links: 4, clicks: 2 });
      expect(await store.countBots({ scope: mine, now, status: 'active' })).toBe(5);
      expect(await store.countLinks({ scope: mine, now, status: 'expired' })).toEqual({ links: 1, clicks: 0 });
      expect(await store.countBots({ scope: mine, now, status: 'expired' })).toBe(1);
      expect(await store.countLinks({ scope: mine, now, search: 'b2' })).toEqual({ links: 1, clicks: 0 });
      expect(await store.countBots({ scope: mine, now, search: 'b2' })).toBe(3);
      expect(await store.countLinks({ scope: mine, now, tag: 'x' })).toEqual({ links: 2, clicks: 0 });
      expect(await store.countBots({ scope: mine, now, tag: 'x' })).toBe(4);
      expect(await store.countLinks({ scope: { ownerId: 3 }, now })).toEqual({ links: 0, clicks: 0 });
      expect(await store.countBots({ scope: { ownerId: 3 }, now })).toBe(0);

      const byTag = (tags: TagCount[]) => [...tags].sort((a, b) => (a.tag < b.tag ? -1 : 1));
      // b2 carries both tags: its bots count once under each.
      expect(byTag(await store.listTags(mine))).toEqual([
        { tag: 'news', links: 4, clicks: 2, bots: 5 },
        { tag: 'x', links: 2, clicks: 0, bots: 4 },
      ]);
      expect(byTag(await store.listTags({ all: true }))).toEqual([
        { tag: 'news', links: 5, clicks: 4, bots: 9 },
        { tag: 'x', links: 2, clicks: 0, bots: 4 },
      ]);
      expect(await store.listTags({ ownerId: 3 })).toEqual([]);
    });

    it('drops visits and folded counts with their link (deleted, or its code retaken)', async () => {
      await make('gone');
      await store.addClicks({
        day: TODAY,
        codeKeys: ['gone'],
        counts: [2],
        visits: [visit('gone', { at: AT - 100 }), visit('gone')],
      });
      await store.addClicks({ day: TODAY, codeKeys: [], counts: [], foldBefore: AT - 50 });
      expect(await store.deleteLink('gone', { all: true }, NOW + 10)).toBe(true);
      await make('gone');
      expect(await store.visitTalliesOf('gone', NOW, TODAY, TODAY)).toEqual({ bots: 0, tallies: [] });
      expect(await store.listVisits('gone', NOW, 10)).toEqual([]);
    });
  });
}
