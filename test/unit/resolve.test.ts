import { beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { codeKeyOfSegment, decodeCodeSegment, resolveCode } from '../../core/redirect/resolve.js';
import { codeKey } from '../../core/rules/code.js';
import type { Link, LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';

const NOW = Date.UTC(2026, 0, 31, 12, 0, 0);
const DAY = 86_400_000;
const enc = encodeURIComponent;

const link = (code: string, expiresAt = NOW + DAY): Link => ({
  code,
  codeKey: codeKey(code),
  originalUrl: `https://example.com/${enc(code)}`,
  createdAt: NOW - DAY,
  expiresAt,
});

const LINKS = {
  hangul: link('한글'),
  promo: link('Promo'),
  upperA: link('A'),
  long: link('a'.repeat(64)),
  longHangul: link('가'.repeat(64)),
  expired: link('old', NOW - 1),
  boundary: link('edge', NOW),
};

let store: LinkStore;
let findByCodeKey: Mock<LinkStore['findByCodeKey']>;

beforeEach(async () => {
  const memory = createMemoryLinkStore();
  for (const l of Object.values(LINKS)) await memory.create(l, l.createdAt);
  findByCodeKey = vi.fn(memory.findByCodeKey);
  store = { ...memory, findByCodeKey };
});

describe('decodeCodeSegment: percent-decoded once as UTF-8, then NFC', () => {
  it.each([
    ['plain ASCII keeps its case', 'Promo', 'Promo'],
    ['percent-encoded Hangul', enc('한글'), '한글'],
    ['raw Hangul', '한글', '한글'],
    ['percent-encoded NFD jamo become NFC', '%E1%84%92%E1%85%A1%E1%86%AB', '한'],
    ['raw NFD becomes NFC', '한글'.normalize('NFD'), '한글'],
    ['%2541 is decoded only once, to %41', '%2541', '%41'],
    ['%41 is decoded to A', '%41', 'A'],
    ['lower-case hex digits', '%ed%95%9c', '한'],
  ])('%s', (_name, segment, expected) => {
    expect(decodeCodeSegment(segment)).toBe(expected);
  });

  it.each([
    ['a truncated escape', '%E0%A4%A'],
    ['a lone percent sign', '%'],
    ['a non-hex escape', '%ZZ'],
    ['an incomplete UTF-8 sequence', '%C3'],
    ['a byte that is never UTF-8', '%FF'],
    ['an encoded lone surrogate', '%ED%A0%80'],
  ])('gives undefined for %s (malformed, no throw)', (_name, segment) => {
    expect(() => decodeCodeSegment(segment)).not.toThrow();
    expect(decodeCodeSegment(segment)).toBeUndefined();
  });
});

describe('resolveCode: active links', () => {
  it.each([
    ['percent-encoded Hangul', enc('한글'), LINKS.hangul],
    ['raw Hangul', '한글', LINKS.hangul],
    ['percent-encoded NFD Hangul resolves to the NFC code', enc('한글'.normalize('NFD')), LINKS.hangul],
    ['the creator’s spelling', 'Promo', LINKS.promo],
    ['lower case', 'promo', LINKS.promo],
    ['upper case', 'PROMO', LINKS.promo],
    ['mixed case', 'pRoMo', LINKS.promo],
    ['%41 decodes to A', '%41', LINKS.upperA],
    ['lower case a for A', 'a', LINKS.upperA],
    ['64 ASCII characters', 'a'.repeat(64), LINKS.long],
    ['64 percent-encoded Hangul syllables (576 characters of path)', enc('가'.repeat(64)), LINKS.longHangul],
  ])('%s', async (_name, segment, expected) => {
    expect(await resolveCode(segment, store, NOW)).toEqual({ state: 'active', link: expected });
  });
});

describe('resolveCode: not found', () => {
  it.each([
    ['an unknown code', 'nothing'],
    ['%2541, which must not be decoded twice into A', '%2541'],
    ['a code that is a prefix of a stored one', 'Prom'],
  ])('%s', async (_name, segment) => {
    expect(await resolveCode(segment, store, NOW)).toEqual({ state: 'not_found' });
  });

  it.each([
    ['a truncated escape', '%E0%A4%A'],
    ['a lone percent sign', '%'],
    ['invalid UTF-8', '%FF'],
    ['the empty segment', ''],
    ['65 ASCII characters', 'a'.repeat(65)],
    ['65 Hangul syllables', enc('가'.repeat(65))],
    ['kilobytes of path', 'x'.repeat(10_000)],
  ])('%s, without touching the store', async (_name, segment) => {
    await expect(resolveCode(segment, store, NOW)).resolves.toEqual({ state: 'not_found' });
    expect(findByCodeKey).not.toHaveBeenCalled();
  });
});

describe('resolveCode: expiry', () => {
  it.each([
    ['a link that expired a millisecond ago', 'old', NOW, 'expired', LINKS.expired],
    ['a link whose expiry is now (now === expiresAt)', 'edge', NOW, 'expired', LINKS.boundary],
    ['the same link one millisecond earlier', 'EDGE', NOW - 1, 'active', LINKS.boundary],
    ['an active link once its time has passed', 'promo', NOW + DAY, 'expired', LINKS.promo],
  ])('%s', async (_name, segment, now, state, expected) => {
    expect(await resolveCode(segment, store, now)).toEqual({ state, link: expected });
  });
});

describe('codeKeyOfSegment', () => {
  it('gives a plain ASCII segment the key its decoding would have', () => {
    for (const segment of ['abc123', 'PromoCode', 'A_b-C', 'x'.repeat(64), 'x'.repeat(65), '-', '_']) {
      const decoded = decodeCodeSegment(segment) as string;
      const expected = [...decoded].length > 64 ? undefined : codeKey(decoded);
      expect(codeKeyOfSegment(segment), segment).toBe(expected);
    }
  });

  it('still decodes and normalizes an escaped segment', () => {
    expect(codeKeyOfSegment('%ED%95%9C%EA%B8%80A')).toBe(codeKey('한글A'));
    expect(codeKeyOfSegment('Pro%6Do')).toBe('promo');
    expect(codeKeyOfSegment('%E0%A4%A')).toBeUndefined();
  });
});
