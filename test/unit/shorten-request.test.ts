import { describe, expect, it } from 'vitest';
import { parseShortenBody } from '../../core/shorten/shorten-request.js';
import { expectInvalid } from './expect-error.js';

const URL_ = 'https://example.com/page';
const FOUR_VALUES = /expire_duration.*24h.*48h.*1week.*1month/;

describe('parseShortenBody: the body must be a JSON object', () => {
  it.each([
    ['an array', [{ original_url: URL_ }]],
    ['an empty array', []],
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a string', JSON.stringify({ original_url: URL_ })],
    ['a boolean', true],
  ])('refuses %s', (_name, body) => {
    expectInvalid(() => parseShortenBody(body), /JSON object/);
  });
});

describe('parseShortenBody: original_url', () => {
  it.each([
    ['missing', {}],
    ['null', { original_url: null }],
    ['missing while other fields are given', { custom_code: 'promo', expire_duration: '24h' }],
  ])('is required when %s', (_name, body) => {
    expectInvalid(() => parseShortenBody(body), /^original_url is required\.$/);
  });

  it.each([
    ['a number', 42],
    ['a boolean', true],
    ['an object', { href: URL_ }],
    ['an array', [URL_]],
  ])('must be a string, not %s', (_name, value) => {
    expectInvalid(() => parseShortenBody({ original_url: value }), /original_url/, /string/);
  });

  it('is passed on as given (the URL rules are checked by shorten)', () => {
    expect(parseShortenBody({ original_url: '  https://EXAMPLE.com/ä ' }).originalUrl).toBe('  https://EXAMPLE.com/ä ');
  });
});

describe('parseShortenBody: custom_code', () => {
  it.each([
    ['absent', {}],
    ['null', { custom_code: null }],
    ['the empty string', { custom_code: '' }],
  ])('counts as not given when %s', (_name, extra) => {
    expect(parseShortenBody({ original_url: URL_, ...extra }).customCode).toBeUndefined();
  });

  it.each([
    ['a Hangul code', '한글'],
    ['an ASCII code, case kept', 'Promo'],
    ['a code the rules will refuse later', 'bad code'],
  ])('passes on %s as given', (_name, code) => {
    expect(parseShortenBody({ original_url: URL_, custom_code: code }).customCode).toBe(code);
  });

  it.each([
    ['a number', 123],
    ['a boolean', false],
    ['an object', {}],
    ['an array', ['promo']],
  ])('must be a string, not %s', (_name, value) => {
    expectInvalid(() => parseShortenBody({ original_url: URL_, custom_code: value }), /custom_code/, /string/);
  });
});

describe('parseShortenBody: expire_duration', () => {
  it.each([
    ['absent', {}],
    ['null', { expire_duration: null }],
    ['the empty string', { expire_duration: '' }],
  ])('defaults to 1week when %s', (_name, extra) => {
    expect(parseShortenBody({ original_url: URL_, ...extra }).expireDuration).toBe('1week');
  });

  it.each(['24h', '48h', '1week', '1month'])('accepts %s', (value) => {
    expect(parseShortenBody({ original_url: URL_, expire_duration: value }).expireDuration).toBe(value);
  });

  it.each([
    ['a day spelled 1d', '1d'],
    ['upper case 1WEEK', '1WEEK'],
    ['a free-form date', '2026-12-01'],
    ['padded with spaces', ' 1week '],
    ['a duration not offered', '2weeks'],
    ['a number', 24],
    ['a boolean', true],
    ['an object', { hours: 24 }],
  ])('refuses %s, naming the four values', (_name, value) => {
    expectInvalid(() => parseShortenBody({ original_url: URL_, expire_duration: value }), FOUR_VALUES);
  });
});

describe('parseShortenBody: the whole request', () => {
  it('gives the three fields', () => {
    expect(parseShortenBody({ original_url: URL_, custom_code: '봄맞이', expire_duration: '1month' })).toStrictEqual({
      originalUrl: URL_,
      customCode: '봄맞이',
      expireDuration: '1month',
    });
  });

  it('ignores unknown fields', () => {
    const body = { original_url: URL_, status: 'x', data: { a: 1 }, expiration_date: '2030-01-01', extra: [1] };
    expect(parseShortenBody(body)).toStrictEqual({ originalUrl: URL_, customCode: undefined, expireDuration: '1week' });
  });

  it('does not change the body it was given', () => {
    const body = { original_url: URL_, custom_code: '', expire_duration: null };
    parseShortenBody(body);
    expect(body).toEqual({ original_url: URL_, custom_code: '', expire_duration: null });
  });
});
