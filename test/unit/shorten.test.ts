import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LinkletError } from '../../core/http/errors.js';
import type { ExpireDuration } from '../../core/rules/expiry.js';
import type { CodeGenerator } from '../../core/rules/generate-code.js';
import { type ShortenContext, shorten } from '../../core/shorten/shorten.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 0, 31, 12, 0, 0);
const WEEK = 7 * 24 * HOUR;
const URL_ = 'https://example.com/page';
const urlRules = { maxLength: 2048, ownHosts: ['sho.rt'] };

/** A generator that hands out `codes` in turn (then `fallback`) and records the lengths asked for. */
function scriptedGenerator(codes: string[], fallback = (length: number) => `fresh${length}`) {
  const lengths: number[] = [];
  const generate: CodeGenerator = (length) => {
    lengths.push(length);
    return codes[lengths.length - 1] ?? fallback(length);
  };
  return { generate, lengths };
}

const request = (customCode?: string, expireDuration: ExpireDuration = '1week', originalUrl = URL_) => ({
  originalUrl,
  customCode,
  expireDuration,
});

let store: LinkStore;
let clock: number;
const deps = (generateCode: CodeGenerator = () => 'unused7'): ShortenContext => ({
  store,
  now: () => clock,
  generateCode,
  urlRules,
});

beforeEach(() => {
  store = createMemoryLinkStore();
  clock = NOW;
});

describe('shorten: custom codes', () => {
  it('makes the link with the code, its key, the trimmed URL and the expiry, and stores it', async () => {
    const result = await shorten(request('Promo', '24h', '  https://EXAMPLE.com/ä '), deps());
    const link = {
      code: 'Promo',
      codeKey: 'promo',
      originalUrl: 'https://EXAMPLE.com/ä',
      createdAt: NOW,
      expiresAt: NOW + 24 * HOUR,
    };
    expect(result).toEqual({ created: true, link });
    expect(await store.findByCodeKey('promo')).toEqual(link);
  });

  it.each([
    ['24h', NOW + 24 * HOUR],
    ['48h', NOW + 48 * HOUR],
    ['1week', NOW + WEEK],
    ['1month', Date.UTC(2026, 1, 28, 12, 0, 0)],
  ] as const)('expire_duration %s sets the expiry', async (duration, expiresAt) => {
    const result = await shorten(request('code', duration), deps());
    expect(result).toMatchObject({ created: true, link: { expiresAt } });
  });

  it('stores the NFC form of an NFD Hangul code', async () => {
    const result = await shorten(request('한글'.normalize('NFD')), deps());
    expect(result).toMatchObject({ created: true, link: { code: '한글', codeKey: '한글' } });
  });

  it('does not call the generator', async () => {
    const { generate, lengths } = scriptedGenerator([]);
    await shorten(request('mine'), deps(generate));
    expect(lengths).toEqual([]);
  });

  it('returns the holder expiry when the code is taken by an active link', async () => {
    await shorten(request('promo', '24h'), deps());
    clock = NOW + HOUR;
    const result = await shorten(request('promo', '1week', 'https://other.example/'), deps());
    expect(result).toEqual({ created: false, code: 'promo', availableAt: NOW + 24 * HOUR });
  });

  it('treats another ASCII case as the same, taken code and leaves the holder alone', async () => {
    const first = await shorten(request('Promo', '48h'), deps());
    const result = await shorten(request('PROMO', '1week', 'https://other.example/'), deps());
    expect(result).toMatchObject({ created: false, availableAt: NOW + 48 * HOUR });
    expect(await store.findByCodeKey('promo')).toEqual(first.created && first.link);
  });

  it('treats NFC and NFD spellings as the same, taken code', async () => {
    await shorten(request('한글'), deps());
    const result = await shorten(request('한글'.normalize('NFD')), deps());
    expect(result).toEqual({ created: false, code: '한글', availableAt: NOW + WEEK });
  });

  it.each([
    ['one millisecond before the holder expires: taken', 24 * HOUR - 1, false],
    ['exactly when the holder expires: free', 24 * HOUR, true],
    ['a day after the holder expired: free', 48 * HOUR, true],
  ])('%s', async (_name, later, created) => {
    await shorten(request('sale', '24h', 'https://old.example/'), deps());
    clock = NOW + later;
    const result = await shorten(request('Sale', '24h', 'https://new.example/'), deps());
    expect(result.created).toBe(created);
    const stored = await store.findByCodeKey('sale');
    expect(stored?.originalUrl).toBe(created ? 'https://new.example/' : 'https://old.example/');
    if (created) expect(stored).toMatchObject({ code: 'Sale', createdAt: clock, expiresAt: clock + 24 * HOUR });
  });
});

describe('shorten: refused requests (400) touch no store', () => {
  it.each([
    ['a reserved custom code', request('Admin'), /reserved/],
    ['a custom code with a space', request('my code'), /custom_code/],
    ['the Kelvin sign', request('\u212A'), /custom_code/],
    ['a custom code of 65 characters', request('a'.repeat(65)), /1 to 64/],
    ['an empty original_url', request('ok', '1week', ''), /original_url is required/],
    ['a javascript: URL', request('ok', '1week', 'javascript:alert(1)'), /http or https/],
    ['a URL to the service itself', request(undefined, '1week', 'https://sho.rt/abc'), /this service/],
    ['a URL with credentials', request(undefined, '1week', 'https://a:b@b.example/'), /credentials/],
  ])('%s', async (_name, req, message) => {
    const create = vi.fn(store.create);
    const { generate } = scriptedGenerator([]);
    const error = await shorten(req, { ...deps(generate), store: { ...store, create } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinkletError);
    expect(error).toMatchObject({ kind: 'invalid', message: expect.stringMatching(message) });
    expect(create).not.toHaveBeenCalled();
  });
});

describe('shorten: generated codes', () => {
  it('asks for a 7-character code and makes the link with it', async () => {
    const { generate, lengths } = scriptedGenerator(['abc2345']);
    const result = await shorten(request(), deps(generate));
    expect(lengths).toEqual([7]);
    expect(result).toEqual({
      created: true,
      link: { code: 'abc2345', codeKey: 'abc2345', originalUrl: URL_, createdAt: NOW, expiresAt: NOW + WEEK },
    });
  });

  it.each([
    ['one collision: retried at the same length', 1, [7, 7], 'fresh7'],
    ['two collisions: still the same length', 2, [7, 7, 7], 'fresh7'],
    ['three collisions at 7: grows to 8', 3, [7, 7, 7, 8], 'fresh8'],
    ['six collisions: grows to 9', 6, [7, 7, 7, 8, 8, 8, 9], 'fresh9'],
    ['eleven collisions: the twelfth try succeeds', 11, [7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 10], 'fresh10'],
  ])('%s', async (_name, collisions, expectedLengths, expectedCode) => {
    await shorten(request('taken'), deps());
    const { generate, lengths } = scriptedGenerator(Array(collisions).fill('taken'));
    const result = await shorten(request(), deps(generate));
    expect(lengths).toEqual(expectedLengths);
    expect(result).toMatchObject({ created: true, link: { code: expectedCode } });
  });

  it('a generated code that differs only in ASCII case from a taken one collides', async () => {
    await shorten(request('taken'), deps());
    const { generate, lengths } = scriptedGenerator(['TAKEN', 'abc2345']);
    const result = await shorten(request(), deps(generate));
    expect(lengths).toEqual([7, 7]);
    expect(result).toMatchObject({ created: true, link: { code: 'abc2345' } });
  });

  it('a generated code held by an expired link is reused', async () => {
    await shorten(request('oldcode', '24h'), deps());
    clock = NOW + 24 * HOUR;
    const { generate, lengths } = scriptedGenerator(['oldcode']);
    const result = await shorten(request(), deps(generate));
    expect(lengths).toEqual([7]);
    expect(result).toMatchObject({ created: true, link: { code: 'oldcode', createdAt: clock } });
  });

  it.each(['api', 'health', 'admin', 'www', 'LOGIN'])('skips the reserved generated code %s', async (reserved) => {
    const { generate } = scriptedGenerator([reserved, 'abc2345']);
    const result = await shorten(request(), deps(generate));
    expect(result).toMatchObject({ created: true, link: { code: 'abc2345' } });
    expect(await store.findByCodeKey(reserved.toLowerCase())).toBeUndefined();
  });

  it('gives up with an internal error after 12 collisions', async () => {
    await shorten(request('taken'), deps());
    const { generate, lengths } = scriptedGenerator([], () => 'taken');
    const error = await shorten(request(), deps(generate)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinkletError);
    expect(error).toMatchObject({ kind: 'internal' });
    expect((error as LinkletError).status).toBe(500);
    expect(lengths).toHaveLength(12);
    expect((await store.findByCodeKey('taken'))?.originalUrl).toBe(URL_);
  });
});
