import { describe, expect, it } from 'vitest';
import { acceptedLanguages, acceptsLanguage } from '../../core/redirect/rules/accepted-languages.js';
import { addressBytes, addressInPattern, parseAddressPattern } from '../../core/redirect/rules/address-pattern.js';
import { withForwardedQuery } from '../../core/redirect/rules/forward-query.js';
import { createVisitLedger } from '../../core/redirect/rules/visit-ledger.js';
import type { Link } from '../../core/store/link-store.js';

const inBlock = (address: string, block: string) => {
  const bytes = addressBytes(address);
  const pattern = parseAddressPattern(block);
  return bytes !== undefined && pattern !== undefined && addressInPattern(bytes, pattern);
};

describe('ip-address conditions', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7', true],
    ['192.0.2.7', '192.0.2.0/24', true],
    ['192.0.3.7', '192.0.2.0/24', false],
    ['192.0.2.7', '0.0.0.0/0', true],
    ['10.127.255.1', '10.0.0.0/9', true],
    ['10.128.0.1', '10.0.0.0/9', false],
    ['::ffff:192.0.2.9', '192.0.2.0/24', true],
    ['2001:db8:0:1::5', '2001:db8::/32', true],
    ['2001:db9::5', '2001:db8::/32', false],
    ['[2001:db8::1]', '2001:db8::1', true],
    ['fe80::1%eth0', 'fe80::/10', true],
    ['::1', '::1/128', true],
    ['192.0.2.7', '2001:db8::/32', false],
  ])('%s in %s: %s', (address, block, expected) => {
    expect(inBlock(address, block)).toBe(expected);
  });

  it.each([
    '',
    'x',
    '192.0.2',
    '256.0.0.1',
    '10.0.0.0/33',
    '2001:db8::/129',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '10.0.0.0/8/8',
  ])('refuses %j as a pattern', (value) => {
    expect(parseAddressPattern(value)).toBeUndefined();
  });
});

describe('language conditions', () => {
  it('reads the accepted tags (q > 0) and matches a tag or a more specific one', () => {
    const accepted = acceptedLanguages('ko-KR, en;q=0.5, ja;q=0, *;q=0.1');
    expect(accepted).toEqual(['ko-kr', 'en']);
    expect(acceptsLanguage(accepted, 'ko')).toBe(true);
    expect(acceptsLanguage(accepted, 'KO-kr')).toBe(true);
    expect(acceptsLanguage(accepted, 'ja')).toBe(false);
    expect(acceptsLanguage(acceptedLanguages('ko'), 'ko-KR')).toBe(false);
    expect(acceptsLanguage(acceptedLanguages('kok'), 'ko')).toBe(false);
  });
});

describe('query forwarding', () => {
  it("adds the visit's parameters, the visit's winning, and keeps the fragment last", () => {
    expect(withForwardedQuery('https://example.com/p?a=1&b=2#f', 'b=3&c=4&c=5')).toBe(
      'https://example.com/p?a=1&b=3&c=4&c=5#f',
    );
    expect(withForwardedQuery('https://example.com/p', '')).toBe('https://example.com/p');
    expect(withForwardedQuery('https://example.com/', '한=글')).toBe('https://example.com/?%ED%95%9C=%EA%B8%80');
  });
});

describe('the visit ledger', () => {
  const link: Link = {
    code: 'l',
    codeKey: 'l',
    originalUrl: 'https://example.com/',
    createdAt: 1,
    expiresAt: 9,
    maxVisits: 3,
  };

  it('counts a click once: noted until its batch is written, then in the stored total', async () => {
    let stored = 0;
    const ledger = createVisitLedger(() => Promise.resolve(stored));
    expect(await ledger.admit(link, true)).toBe(true);
    expect(await ledger.admit(link, true)).toBe(true);
    const mark = ledger.seal();
    expect(await ledger.admit(link, true)).toBe(true); // noted after the seal: not in that batch
    stored = 2; // the batch is in the store…
    expect(await ledger.admit(link, false)).toBe(false); // …and, until told, counted twice: refused early, never late
    ledger.written(mark);
    expect(await ledger.admit(link, false)).toBe(false); // 2 stored + 1 noted = 3
    stored = 3;
    ledger.written(ledger.seal());
    expect(await ledger.admit({ ...link, maxVisits: 4 }, true)).toBe(true);
    expect(await ledger.admit({ ...link, maxVisits: 4 }, true)).toBe(false);
  });

  it('never lets two visits decided at once both take the last click, nor counts a retaken code’s clicks', async () => {
    const ledger = createVisitLedger(() => new Promise((resolve) => setTimeout(() => resolve(0), 1)));
    const one = { ...link, maxVisits: 1 };
    const decided = await Promise.all(Array.from({ length: 5 }, () => ledger.admit(one, true)));
    expect(decided.filter(Boolean)).toHaveLength(1);
    expect(await ledger.admit({ ...one, createdAt: 2 }, true)).toBe(true);
  });

  it('notes no click for a visit that is not one (a bot, HEAD, a prefetch)', async () => {
    const ledger = createVisitLedger(() => 0);
    const one = { ...link, maxVisits: 1 };
    expect(ledger.admit(one, false)).toBe(true);
    expect(ledger.admit(one, false)).toBe(true);
    expect(ledger.admit(one, true)).toBe(true);
    expect(ledger.admit(one, false)).toBe(false);
  });
});
