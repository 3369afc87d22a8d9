import { describe, expect, it } from 'vitest';
import { ShlinkProblemError } from '../../core/compat/shlink/shlink-problem.js';
import {
  parseIpCondition,
  parseShlinkRedirectRules,
  toShlinkRedirectRules,
} from '../../core/compat/shlink/shlink-redirect-rules.js';
import { toShortUrl } from '../../core/compat/shlink/short-url-view.js';
import { parseShlinkCreate, parseShlinkEdit } from '../../core/compat/shlink/short-url-write.js';
import type { RedirectRule } from '../../core/rules/redirect-rule.js';
import type { Link } from '../../core/store/link-store.js';
import { expectInvalid } from './expect-error.js';

const urlRules = { maxLength: 2048, ownHosts: ['sho.rt'], blockPrivateTargets: true };
const NOW = Date.UTC(2026, 10, 29, 12);
const writeRules = { urlRules, host: 'sho.rt', now: NOW };
const link: Link = {
  code: 'abc',
  codeKey: 'abc',
  originalUrl: 'https://example.com/',
  createdAt: NOW - 1000,
  expiresAt: NOW + 86_400_000,
};
const rule = (conditions: unknown[], longUrl = 'https://example.com/to') => ({ longUrl, conditions });

/** The refusal's fields and detail, as Shlink's problem document carries them. */
function refusal(value: unknown) {
  const error = expectInvalid(() => parseShlinkRedirectRules(value, urlRules));
  expect(error).toBeInstanceOf(ShlinkProblemError);
  expect((error as ShlinkProblemError).extras).toEqual({ invalidElements: ['redirectRules'] });
  return error.message;
}

describe('Shlink redirect rules: to and from the link', () => {
  it('maps every condition kind both ways, in order, with Shlink’s nulls', () => {
    const body = [
      rule([
        { type: 'device', matchKey: null, matchValue: 'Android' },
        { type: 'browser', matchKey: null, matchValue: 'firefox' },
      ]),
      rule(
        [
          { type: 'language', matchKey: null, matchValue: 'ko-KR' },
          { type: 'query-param', matchKey: 'utm_source', matchValue: 'mail' },
          { type: 'any-value-query-param', matchKey: 'ref', matchValue: null },
          { type: 'valueless-query-param', matchKey: 'debug' },
          { type: 'geolocation-country-code', matchKey: null, matchValue: 'kr' },
          { type: 'before-date', matchKey: null, matchValue: '2026-12-31T00:00:00+09:00' },
          { type: 'after-date', matchKey: null, matchValue: '2026-01-01' },
          { type: 'ip-address', matchKey: null, matchValue: '192.168.0.0/16' },
        ],
        'https://example.com/ko',
      ),
    ];
    const rules = parseShlinkRedirectRules(body, urlRules);
    expect(rules).toEqual<RedirectRule[]>([
      {
        targetUrl: 'https://example.com/to',
        conditions: [
          { type: 'device', value: 'android' },
          { type: 'browser', value: 'firefox' },
        ],
      },
      {
        targetUrl: 'https://example.com/ko',
        conditions: [
          { type: 'language', value: 'ko-KR' },
          { type: 'query-param', key: 'utm_source', value: 'mail' },
          { type: 'any-value-query-param', key: 'ref' },
          { type: 'valueless-query-param', key: 'debug' },
          { type: 'geolocation-country-code', value: 'KR' },
          { type: 'before-date', value: '2026-12-30T15:00:00.000Z' },
          { type: 'after-date', value: '2026-01-01T00:00:00.000Z' },
          { type: 'ip-address', value: '192.168.0.0/16' },
        ],
      },
    ]);
    const listed = toShlinkRedirectRules('https://example.com/', rules);
    expect(listed.defaultLongUrl).toBe('https://example.com/');
    expect(listed.redirectRules.map((one) => [one.priority, one.longUrl])).toEqual([
      [1, 'https://example.com/to'],
      [2, 'https://example.com/ko'],
    ]);
    expect(listed.redirectRules[1]?.conditions.slice(1, 4)).toEqual([
      { type: 'query-param', matchKey: 'utm_source', matchValue: 'mail' },
      { type: 'any-value-query-param', matchKey: 'ref', matchValue: null },
      { type: 'valueless-query-param', matchKey: 'debug', matchValue: null },
    ]);
    expect(listed.redirectRules[0]?.conditions[0]).toEqual({ type: 'device', matchKey: null, matchValue: 'android' });
    expect(toShlinkRedirectRules('https://example.com/')).toEqual({
      defaultLongUrl: 'https://example.com/',
      redirectRules: [],
    });
    expect(parseShlinkRedirectRules([], urlRules)).toEqual([]);
  });

  it('refuses what Linklet cannot match, saying which rule and condition and what is accepted', () => {
    expect(refusal(undefined)).toMatch(/^redirectRules must be a list such as/);
    expect(refusal(Array.from({ length: 21 }, () => rule([{ type: 'device', matchValue: 'ios' }])))).toBe(
      'A short URL has at most 20 redirect rules; this has 21.',
    );
    expect(refusal([rule([])])).toBe('redirectRules[0].conditions must be a list of 1 to 10 conditions.');
    expect(refusal([rule(Array.from({ length: 11 }, () => ({ type: 'device', matchValue: 'ios' })))])).toMatch(
      /conditions must be a list of 1 to 10/,
    );
    expect(refusal([{ conditions: [] }])).toBe('redirectRules[0].longUrl is required: where it sends.');
    expect(refusal([rule([{ type: 'device', matchValue: 'ios' }], 'ftp://example.com/')])).toMatch(
      /^redirectRules\[0\]: longUrl must use http or https/,
    );
    expect(refusal([rule([{ type: 'device', matchValue: 'ios' }], 'http://127.0.0.1/')])).toMatch(
      /^redirectRules\[0\]: /,
    );
    expect(refusal([rule([{ type: 'geolocation-city-name', matchValue: 'Seoul' }])])).toMatch(
      /^redirectRules\[0\]\.conditions\[0\]: type must be one of device, browser, language/,
    );
    expect(refusal([rule([{ type: 'browser', matchValue: 'android_browser' }])])).toBe(
      'redirectRules[0].conditions[0]: a browser must be one of chrome, firefox, edge, safari, opera.',
    );
    expect(refusal([rule([{ type: 'query-param', matchKey: '', matchValue: 'x' }])])).toBe(
      "redirectRules[0].conditions[0]: a query-param condition needs matchKey: the query parameter's name.",
    );
    expect(refusal([rule([{ type: 'language', matchValue: '' }])])).toBe(
      'redirectRules[0].conditions[0]: a language condition needs matchValue.',
    );
    expect(refusal([rule([{ type: 'language', matchValue: 'en_US' }])])).toMatch(/a language such as en or ko-KR/);
    expect(refusal([rule([{ type: 'geolocation-country-code', matchValue: 'KOR' }])])).toMatch(/two-letter/);
    expect(refusal([rule([{ type: 'after-date', matchValue: 'tomorrow' }])])).toBe(
      'redirectRules[0].conditions[0]: matchValue must be an ISO 8601 date, such as 2026-11-26T10:00:00+00:00.',
    );
    expect(refusal([rule([{ type: 'ip-address', matchValue: '10.0.*.*' }])])).toMatch(/an IP address or a CIDR block/);
    expect(refusal([rule(['device'])])).toMatch(/each condition must be an object/);
  });

  it('takes IPv4 and IPv6 addresses and CIDR blocks, and nothing else', () => {
    expect(parseIpCondition('203.0.113.7')).toBe('203.0.113.7');
    expect(parseIpCondition('10.0.0.0/08')).toBe('10.0.0.0/8');
    expect(parseIpCondition('2001:db8::1')).toBe('2001:db8::1');
    expect(parseIpCondition('2001:db8::/32')).toBe('2001:db8::/32');
    for (const bad of ['256.0.0.1', '10.0.0.0/33', '2001:db8::/129', '1.2.3', 'example.com', '1.2.3.4/8/8', '::g']) {
      expect(parseIpCondition(bad), bad).toBeUndefined();
    }
  });
});

describe('Shlink short URL fields: maxVisits, validSince, forwardQuery, hasRedirectRules', () => {
  it('takes a create’s limits, null and false being the defaults', () => {
    const { request } = parseShlinkCreate(
      {
        longUrl: 'https://example.com/',
        maxVisits: 100,
        validSince: '2026-12-01T00:00:00+00:00',
        forwardQuery: true,
      },
      writeRules,
      '1month',
    );
    expect(request).toMatchObject({ maxVisits: 100, validSince: Date.UTC(2026, 11, 1), forwardQuery: true });
    const plain = parseShlinkCreate(
      { longUrl: 'https://example.com/', maxVisits: null, validSince: null, forwardQuery: false },
      writeRules,
      '1month',
    );
    expect(plain.request).toMatchObject({ maxVisits: null, validSince: null, forwardQuery: false });
  });

  it('patches an edit’s limits, null removing them, absent leaving them', () => {
    expect(parseShlinkEdit({ maxVisits: 5, validSince: '2026-12-01', forwardQuery: false }, link, writeRules)).toEqual({
      maxVisits: 5,
      validSince: Date.UTC(2026, 11, 1),
      forwardQuery: false,
    });
    expect(parseShlinkEdit({ maxVisits: null, validSince: null }, link, writeRules)).toEqual({
      maxVisits: null,
      validSince: null,
    });
    expect(parseShlinkEdit({ title: 'x' }, link, writeRules)).toEqual({ title: 'x' });
    expectInvalid(() => parseShlinkEdit({ maxVisits: -1 }, link, writeRules), /maxVisits must be a whole number/);
  });

  it('refuses a day the month does not have instead of rolling it over', () => {
    const edit = expectInvalid(() => parseShlinkEdit({ validSince: '2026-02-31' }, link, writeRules));
    expect(edit.message).toBe('validSince must be an ISO 8601 date, such as 2026-11-26T10:00:00+00:00.');
    const create = expectInvalid(() =>
      parseShlinkCreate(
        { longUrl: 'https://example.com/', validUntil: '2026-04-31T10:00:00+00:00' },
        writeRules,
        '1month',
      ),
    );
    expect(create.message).toBe('validUntil must be an ISO 8601 date, such as 2026-11-26T10:00:00+00:00.');
    expect(parseShlinkEdit({ validSince: '2028-02-29' }, link, writeRules)).toEqual({
      validSince: Date.UTC(2028, 1, 29),
    });
  });

  it('shows the link’s start, limit, forwarding and whether it has rules', () => {
    const plain = toShortUrl(link, 'https://sho.rt');
    expect(plain.meta).toEqual({ validSince: null, validUntil: '2026-11-30T12:00:00+00:00', maxVisits: null });
    expect([plain.forwardQuery, plain.hasRedirectRules]).toEqual([false, false]);
    const limited = toShortUrl(
      {
        ...link,
        maxVisits: 3,
        validSince: Date.UTC(2026, 11, 1, 9),
        forwardQuery: true,
        redirectRules: [{ targetUrl: 'https://example.com/a', conditions: [{ type: 'device', value: 'android' }] }],
      },
      'https://sho.rt',
    );
    expect(limited.meta).toEqual({
      validSince: '2026-12-01T09:00:00+00:00',
      validUntil: '2026-11-30T12:00:00+00:00',
      maxVisits: 3,
    });
    expect([limited.forwardQuery, limited.hasRedirectRules]).toEqual([true, true]);
  });
});
