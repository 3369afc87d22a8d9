import { expect } from 'vitest';
import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import type { Link } from '../../core/store/link-store.js';
import { ALL_DAYS_TALLIES, FOLDED_DAY, listedVisits, VISIT_DAY, VISIT_DAY_TALLIES } from './legacy-visits.js';
import { sortedTallies } from './visit-contract.js';

/**
 * The rows both migration tests seed into an old database, and what today's store must read of
 * them: each store numbers its schemas its own way, but a feature's rows read back alike.
 */

/** When the seeded links were made ('retaken' a millisecond later), and when they expire. */
export const C = Date.UTC(2026, 0, 10, 9);
export const FAR = Date.UTC(2030, 0, 1);
/** The UTC day of their first clicks. */
export const D = Math.floor(C / 86_400_000);
/** 'keep''s password, as the server's hasher writes one (the store keeps it as it is). */
export const HASH = 'scrypt$16384$8$1$c2FsdC1vZi1rZWVw$aGFzaC1vZi1rZWVw';

export const KEEP: Link = {
  code: 'Keep',
  codeKey: 'keep',
  originalUrl: 'https://example.com/keep',
  createdAt: C,
  expiresAt: FAR,
};

/** What an old database could hold beyond its two links. */
export type OldFeature = 'owners' | 'clicks' | 'linkIds' | 'visits' | 'passwords' | 'labels' | 'packedVisits';

/**
 * Checks that `store`, opened on a migrated database, reads every row seeded for the features
 * it had (`has`): 'keep' owned by alice and disabled, clicked 5 times over two days, visited, with
 * a password, a title and tags; 'retaken' clicked once.
 */
export async function expectOldRowsRead(store: ManagedLinkStore, has: (feature: OldFeature) => boolean) {
  expect(await store.findByCodeKey('keep')).toEqual({
    ...KEEP,
    ...(has('owners') && { ownerId: 1, updatedAt: C + 5, disabled: true }),
    ...(has('passwords') && { passwordHash: HASH }),
    ...(has('labels') && { title: 'Keep this', tags: ['work', 'news'] }),
  });
  const listed = await store.listLinks({ scope: { all: true }, limit: 5, now: C });
  expect(listed.map((found) => found.code)).toEqual(['retaken', 'Keep']);
  // Schema 14: a link made before claim tokens has none, so nobody can claim it.
  expect(await store.claimStateOf('retaken')).toEqual({});
  expect(await store.claimLink('retaken', 'a'.repeat(64), 1, C + 10)).toBeUndefined();
  if (has('owners')) {
    const key = await store.findKeyByHash('hash-of-alice');
    expect(key).toEqual({ id: 1, ownerId: 1, name: 'alice', createdAt: C, revoked: false });
  }
  if (has('clicks')) {
    expect(listed.map((found) => found.clicks)).toEqual([1, 5]);
    const days = [
      { day: D, clicks: 3 },
      { day: D + 1, clicks: 2 },
    ];
    expect(await store.clicksOf('keep', C, 0)).toEqual({ total: 5, days });
    // Before ids, days adding up to more than the link's total were not all its own: dropped, as
    // are days of no link. Under ids, a retake dropped the previous holder's days: those left stay.
    const retakenDays = has('linkIds') ? [{ day: D, clicks: 1 }] : [];
    expect(await store.clicksOf('retaken', C + 1, 0)).toEqual({ total: 1, days: retakenDays });
  }
  if (has('visits')) {
    expect(await store.listVisits('keep', C, 10)).toEqual(listedVisits(has('packedVisits')));
    expect(sortedTallies(await store.visitTalliesOf('keep', C, VISIT_DAY, VISIT_DAY))).toEqual(VISIT_DAY_TALLIES);
    expect(sortedTallies(await store.visitTalliesOf('keep', C, FOLDED_DAY, VISIT_DAY))).toEqual(ALL_DAYS_TALLIES);
  }
  if (has('labels')) {
    const tagged = await store.listLinks({ scope: { all: true }, limit: 5, now: C, tag: 'news' });
    expect(tagged.map((found) => found.code)).toEqual(['Keep']);
  }
}

/** How many rows of `link_click_days` the migrated database keeps of those seeded. */
export const clickDaysKept = (has: (feature: OldFeature) => boolean): number =>
  has('linkIds') ? 3 : has('clicks') ? 2 : 0;
