import { describe, expect, it } from 'vitest';
import { storedClicksOf } from '../../core/redirect/rules/link-rule-options.js';
import { dayOf } from '../../core/rules/clicks.js';
import type { RedirectRule } from '../../core/rules/redirect-rule.js';
import type { ManagedLinkStore, OwnerScope } from '../../core/store/link-management-store.js';
import type { Link } from '../../core/store/link-store.js';
import { freshStorePerTest, type StoreFactory } from './fresh-store.js';
import { link, NOW } from './link-store-contract.js';

const ALL: OwnerScope = { all: true };

const RULES: RedirectRule[] = [
  {
    targetUrl: 'https://example.com/android',
    conditions: [
      { type: 'device', value: 'android' },
      { type: 'query-param', key: 'utm_source', value: 'mail' },
    ],
  },
  { targetUrl: 'https://example.com/ko', conditions: [{ type: 'language', value: 'ko' }] },
  {
    targetUrl: 'https://例え.jp/경로?q=1',
    conditions: [
      { type: 'any-value-query-param', key: 'ref' },
      { type: 'valueless-query-param', key: 'beta' },
      { type: 'geolocation-country-code', value: 'KR' },
      { type: 'after-date', value: '2026-02-01T00:00:00.000Z' },
      { type: 'ip-address', value: '192.0.2.0/24' },
    ],
  },
];

/**
 * Redirect rules, visit limits, start dates and query forwarding as every store keeps them
 * (SPEC "Link rules and limits"): run over memory, SQLite and PostgreSQL, and behind the cache.
 */
export function describeLinkRulesContract(name: string, factory: StoreFactory<ManagedLinkStore>): void {
  describe(`link rules contract: ${name}`, () => {
    let store: ManagedLinkStore;
    freshStorePerTest(factory, (made) => {
      store = made;
    });

    it('keeps rules (in order, every condition kind), a limit, a start and forwarding from the create', async () => {
      const made = await store.create(
        link('ruled', { redirectRules: RULES, maxVisits: 3, validSince: NOW + 5000, forwardQuery: true }),
        NOW,
      );
      expect(made.created).toBe(true);
      for (const found of [
        await store.findByCodeKey('ruled'),
        store.lookup ? await store.lookup('ruled') : undefined,
      ]) {
        if (found === undefined) continue;
        expect(found.redirectRules).toEqual(RULES);
        expect(found.maxVisits).toBe(3);
        expect(found.validSince).toBe(NOW + 5000);
        expect(found.forwardQuery).toBe(true);
      }
      const listed = await store.listLinks({ scope: ALL, limit: 10, now: NOW + 1 });
      expect(listed[0]?.redirectRules).toEqual(RULES);
      expect(listed[0]?.maxVisits).toBe(3);
    });

    it('leaves every field out of a link made without them', async () => {
      await store.create(link('plain'), NOW);
      const found = await store.findByCodeKey('plain');
      for (const field of ['redirectRules', 'maxVisits', 'validSince', 'forwardQuery']) {
        expect(found && field in found).toBe(false);
      }
    });

    it('patches each field on its own, clears each with null or [], and keeps what the patch does not name', async () => {
      await store.create(link('edit', { title: 'Kept', forwardQuery: true }), NOW);
      const ruled = await store.updateLink('edit', ALL, { redirectRules: RULES }, NOW + 1);
      expect(ruled.updated && ruled.link.redirectRules).toEqual(RULES);
      expect(ruled.updated && ruled.link.forwardQuery).toBe(true);
      const limited = await store.updateLink('edit', ALL, { maxVisits: 10, validSince: NOW + 60_000 }, NOW + 2);
      expect(limited.updated && [limited.link.maxVisits, limited.link.validSince]).toEqual([10, NOW + 60_000]);
      expect(limited.updated && limited.link.redirectRules).toEqual(RULES);
      // A redirect read after the patch sees it (a cache in front never answers the old link).
      const read = store.lookup ? await store.lookup('edit') : await store.findByCodeKey('edit');
      expect(read?.maxVisits).toBe(10);
      expect(read?.redirectRules).toEqual(RULES);
      await store.updateLink('edit', ALL, { forwardQuery: false, maxVisits: null }, NOW + 3);
      const off = await store.findByCodeKey('edit');
      expect(off && ['forwardQuery' in off, 'maxVisits' in off]).toEqual([false, false]);
      expect(off?.validSince).toBe(NOW + 60_000);
      await store.updateLink('edit', ALL, { redirectRules: [], validSince: null }, NOW + 4);
      const cleared = store.lookup ? await store.lookup('edit') : await store.findByCodeKey('edit');
      expect(cleared && ['redirectRules' in cleared, 'validSince' in cleared]).toEqual([false, false]);
      expect(cleared?.title ?? (await store.findByCodeKey('edit'))?.title).toBe('Kept');
    });

    it('answers the total a visit limit reads: the clicks of this link, not of a previous holder of its code', async () => {
      const made = await store.create(link('limited', { maxVisits: 5 }), NOW);
      expect(made.created).toBe(true);
      const clicksOf = storedClicksOf(store);
      const limited = (await store.findByCodeKey('limited')) as Link;
      expect(await clicksOf(limited)).toBe(0);
      await store.addClicks({ day: dayOf(NOW), codeKeys: ['limited'], counts: [3] });
      await store.addClicks({ day: dayOf(NOW) + 1, codeKeys: ['limited'], counts: [1] });
      expect(await clicksOf(limited)).toBe(4);
      expect(await clicksOf({ ...limited, createdAt: NOW - 1 })).toBe(0);
    });

    it('gives a retaken code none of its expired holder’s rules or limits', async () => {
      await store.create(
        link('again', { redirectRules: RULES, maxVisits: 2, forwardQuery: true, expiresAt: NOW + 10 }),
        NOW,
      );
      const retaken = await store.create(link('again', { createdAt: NOW + 20, expiresAt: NOW + 100_000 }), NOW + 20);
      expect(retaken.created).toBe(true);
      const found = await store.findByCodeKey('again');
      expect(found && ['redirectRules' in found, 'maxVisits' in found, 'forwardQuery' in found]).toEqual([
        false,
        false,
        false,
      ]);
    });
  });
}
