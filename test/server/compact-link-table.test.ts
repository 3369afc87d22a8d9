import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locationOf } from '../../core/redirect/resolve.js';
import type { Link } from '../../core/store/link-store.js';
import { createCompactLinkTable } from '../../server/stores/cache/compact-link-table.js';
import { hashOf } from '../../server/stores/cache/frequency-sketch.js';

const keys = ['a', 'b', 'promo', '한글', 'x'.repeat(64), '가'.repeat(64), 'c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
const linkOf = (key: string, n: number, target: string): Link => ({
  code: n % 2 === 0 ? key : key.toUpperCase(),
  codeKey: key,
  originalUrl: target,
  createdAt: 1_000 + n,
  expiresAt: 2_000_000 + n,
});
const targets = fc.oneof(
  fc.nat().map((n) => `https://example.com/${n}`),
  fc.integer({ min: 1, max: 1500 }).map((n) => `https://example.com/${'q'.repeat(n)}`),
  fc.integer({ min: 1, max: 300 }).map((n) => `https://한국.example/${'가'.repeat(n)}`),
);
type Op = { kind: 'put' | 'renew'; key: string; n: number; target: string } | { kind: 'remove'; key: string };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), key: fc.constantFrom(...keys), n: fc.nat(), target: targets }),
  fc.record({ kind: fc.constant('renew' as const), key: fc.constantFrom(...keys), n: fc.nat(), target: targets }),
  fc.record({ kind: fc.constant('remove' as const), key: fc.constantFrom(...keys) }),
);

/** Runs the operations on a table and checks, after each, every key against the model. */
function check(ops: Op[], maxEntries: number, maxBytes: number, mayEvict: boolean) {
  const table = createCompactLinkTable({ maxEntries, maxBytes });
  const model = new Map<string, Link>();
  for (const o of ops) {
    if (o.kind === 'put') {
      const link = linkOf(o.key, o.n, o.target);
      if (table.insert(o.key, hashOf(o.key), link, new URL(o.target).href, 7)) model.set(o.key, link);
      else model.delete(o.key);
    } else if (o.kind === 'renew') {
      // Only a key that holds a place is renewed; one that cannot be kept as read loses it.
      const link = linkOf(o.key, o.n, o.target);
      const held = table.find(o.key, hashOf(o.key)) !== -1;
      const renewed = table.renew(o.key, hashOf(o.key), link, new URL(o.target).href, 7);
      if (!held) expect(renewed).toBe(false);
      if (renewed) model.set(o.key, link);
      else model.delete(o.key);
    } else {
      const slot = table.find(o.key, hashOf(o.key));
      if (slot !== -1) table.remove(slot);
      model.delete(o.key);
    }
    let present = 0;
    for (const key of keys) {
      const slot = table.find(key, hashOf(key));
      if (slot === -1) {
        // Only an eviction may lose a link the model still has.
        if (!mayEvict) expect(model.has(key), key).toBe(false);
        continue;
      }
      present++;
      const found = table.linkAt(slot, key);
      expect(found).toEqual(model.get(key));
      expect(locationOf(found)).toBe(new URL(found.originalUrl).href);
      expect(table.trustedUntilAt(slot)).toBe(7);
    }
    expect(table.size).toBe(present);
    expect(table.bytes).toBeLessThanOrEqual(maxBytes);
  }
}

describe('the compact link table', () => {
  it('renews an unchanged link in its own place, and replaces a changed one', () => {
    const table = createCompactLinkTable({ maxEntries: 8, maxBytes: 64 * 1024 });
    const link = linkOf('promo', 2, 'https://example.com/sale');
    const href = new URL(link.originalUrl).href;
    table.insert('promo', hashOf('promo'), link, href, 7);
    const slot = table.find('promo', hashOf('promo'));
    const bytes = table.bytes;
    expect(table.renew('promo', hashOf('promo'), { ...link }, href, 70)).toBe(true);
    expect(table.find('promo', hashOf('promo'))).toBe(slot);
    expect(table.trustedUntilAt(slot)).toBe(70);
    expect(table.bytes).toBe(bytes); // nothing written again
    const moved = { ...link, originalUrl: 'https://example.org/elsewhere' };
    expect(table.renew('promo', hashOf('promo'), moved, moved.originalUrl, 80)).toBe(true);
    const now = table.find('promo', hashOf('promo'));
    expect(table.linkAt(now, 'promo')).toEqual(moved);
    expect(table.trustedUntilAt(now)).toBe(80);
    expect(table.renew('absent', hashOf('absent'), link, href, 90)).toBe(false);
    expect(table.size).toBe(1);
  });

  it('gives a link read again as the object it gave before, until its place holds another', () => {
    const table = createCompactLinkTable({ maxEntries: 200, maxBytes: 1 << 20 });
    const put = (key: string, target: string, n = 2) =>
      table.insert(key, hashOf(key), linkOf(key, n, target), new URL(target).href, 7);
    const renew = (key: string, target: string) =>
      table.renew(key, hashOf(key), linkOf(key, 2, target), new URL(target).href, 9);
    const read = (key: string) => table.linkAt(table.find(key, hashOf(key)), key);
    put('promo', 'https://example.com/sale');
    const first = read('promo');
    expect(read('promo')).toBe(first);
    // Kept unchanged: still the same object. Changed: the same slot now holds the new link.
    renew('promo', 'https://example.com/sale');
    expect(read('promo')).toBe(first);
    const slot = table.find('promo', hashOf('promo'));
    renew('promo', 'https://example.org/moved');
    expect(table.find('promo', hashOf('promo'))).toBe(slot);
    expect(read('promo')).toEqual(linkOf('promo', 2, 'https://example.org/moved'));
    // Removed, and its slot taken by another key: that key's link, never the one read before.
    table.remove(table.find('promo', hashOf('promo')));
    put('other', 'https://example.net/');
    expect(table.find('other', hashOf('other'))).toBe(slot);
    expect(read('other')).toEqual(linkOf('other', 2, 'https://example.net/'));
    // Slots 64 apart share an entry: each still reads as its own link.
    for (let i = 0; i < 130; i++) put(`k${i}`, `https://example.com/${i}`);
    for (let i = 0; i < 130; i++) expect(read(`k${i}`).originalUrl).toBe(`https://example.com/${i}`);
    for (let i = 129; i >= 0; i--) expect(read(`k${i}`).originalUrl).toBe(`https://example.com/${i}`);
  });

  it('finds exactly what was put and not removed, through colliding index cells', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => check(ops, 1000, 1 << 20, false)),
      { numRuns: 300 },
    );
  });

  it('evicts and compacts within a small byte budget, every link it keeps intact', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => check(ops, 8, 12 * 1024, true)),
      { numRuns: 300 },
    );
  });

  it('keeps nothing it cannot hold whole: a record over its size limit is refused', () => {
    const table = createCompactLinkTable({ maxEntries: 10, maxBytes: 64 * 1024 });
    const huge = `https://example.com/${'z'.repeat(5000)}`;
    expect(table.insert('big', hashOf('big'), linkOf('big', 0, huge), huge, 1)).toBe(false);
    expect(table.size).toBe(0);
  });
});
