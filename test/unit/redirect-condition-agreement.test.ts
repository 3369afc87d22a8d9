import { describe, expect, it } from 'vitest';
import { parseShlinkRedirectRules } from '../../core/compat/shlink/shlink-redirect-rules.js';
import { LinkletError } from '../../core/http/errors.js';
import { parseRedirectRules } from '../../core/management/links/link-rules-request.js';
import type { RedirectCondition } from '../../core/rules/redirect-rule.js';

// One table of conditions through both APIs that set redirect rules: the v1 API
// (`{type, key, value}`) and the Shlink API (`{type, matchKey, matchValue}`). They must take and
// refuse the same ones and store the same thing, so a rule set through one is valid in the other.
const urlRules = { maxLength: 2048, ownHosts: ['sho.rt'], blockPrivateTargets: true };
type Row = { type: unknown; key?: string; value?: string };

/** What an API made of one condition: the condition as stored, or its refusal's status. */
function outcome(parse: () => Array<{ conditions: RedirectCondition[] }>): RedirectCondition | number {
  try {
    return parse()[0]?.conditions[0] as RedirectCondition;
  } catch (error) {
    if (!(error instanceof LinkletError)) throw error;
    return error.status;
  }
}

const byV1 = (row: Row) =>
  outcome(() => parseRedirectRules([{ target_url: 'https://example.com/to', conditions: [row] }], urlRules));
const byShlink = (row: Row) =>
  outcome(() =>
    parseShlinkRedirectRules(
      [
        {
          longUrl: 'https://example.com/to',
          conditions: [{ type: row.type, matchKey: row.key ?? null, matchValue: row.value ?? null }],
        },
      ],
      urlRules,
    ),
  );

const taken: Array<[Row, RedirectCondition]> = [
  [
    { type: 'device', value: 'Android' },
    { type: 'device', value: 'android' },
  ],
  [
    { type: 'device', value: ' chromeos ' },
    { type: 'device', value: 'chromeos' },
  ],
  [
    { type: 'browser', value: 'FIREFOX' },
    { type: 'browser', value: 'firefox' },
  ],
  [
    { type: 'language', value: 'ko' },
    { type: 'language', value: 'ko' },
  ],
  [
    { type: 'language', value: 'zh-Hant-TW' },
    { type: 'language', value: 'zh-Hant-TW' },
  ],
  [
    { type: 'query-param', key: 'utm_source', value: 'mail' },
    { type: 'query-param', key: 'utm_source', value: 'mail' },
  ],
  [
    { type: 'query-param', key: ' a b ', value: 'x'.repeat(200) },
    { type: 'query-param', key: 'a b', value: 'x'.repeat(200) },
  ],
  [
    { type: 'any-value-query-param', key: 'ref' },
    { type: 'any-value-query-param', key: 'ref' },
  ],
  [
    { type: 'valueless-query-param', key: 'a=b' },
    { type: 'valueless-query-param', key: 'a=b' },
  ],
  [
    { type: 'geolocation-country-code', value: 'kr' },
    { type: 'geolocation-country-code', value: 'KR' },
  ],
  [
    { type: 'before-date', value: '2026-12-31T00:00:00+09:00' },
    { type: 'before-date', value: '2026-12-30T15:00:00.000Z' },
  ],
  [
    { type: 'after-date', value: '2026-01-01T00:00Z' },
    { type: 'after-date', value: '2026-01-01T00:00:00.000Z' },
  ],
  [
    { type: 'ip-address', value: '192.168.0.0/16' },
    { type: 'ip-address', value: '192.168.0.0/16' },
  ],
  [
    { type: 'ip-address', value: '10.0.0.0/08' },
    { type: 'ip-address', value: '10.0.0.0/8' },
  ],
  [
    { type: 'ip-address', value: '2001:db8::/32' },
    { type: 'ip-address', value: '2001:db8::/32' },
  ],
  [
    { type: 'ip-address', value: '::ffff:192.0.2.1' },
    { type: 'ip-address', value: '::ffff:192.0.2.1' },
  ],
];

const refused: Row[] = [
  { type: 'geolocation-city-name', value: 'Seoul' },
  { type: 7, value: 'x' },
  { type: 'device', value: 'blackberry' },
  { type: 'device', value: '' },
  { type: 'device' },
  { type: 'browser', value: 'android_browser' },
  { type: 'language', value: 'en_US' },
  { type: 'language', value: 'english' },
  { type: 'language', value: 'x' },
  { type: 'language', value: '  ' },
  { type: 'query-param', key: '', value: 'x' },
  { type: 'query-param', key: ' ', value: 'x' },
  { type: 'query-param', value: 'x' },
  { type: 'query-param', key: 'k'.repeat(201), value: 'x' },
  { type: 'query-param', key: 'k', value: '' },
  { type: 'query-param', key: 'k', value: 'x'.repeat(201) },
  { type: 'any-value-query-param' },
  { type: 'valueless-query-param', key: '' },
  { type: 'geolocation-country-code', value: 'KOR' },
  { type: 'geolocation-country-code', value: '1' },
  { type: 'before-date', value: 'tomorrow' },
  { type: 'after-date', value: '2026-02-31T00:00:00Z' },
  { type: 'ip-address', value: '10.0.*.*' },
  { type: 'ip-address', value: '256.0.0.1' },
  { type: 'ip-address', value: '10.0.0.0/33' },
  { type: 'ip-address', value: '2001:db8::/129' },
  { type: 'ip-address', value: '1.2.3.4/8/8' },
  { type: 'ip-address', value: 'example.com' },
];

describe('redirect conditions: the v1 and Shlink APIs take the same ones', () => {
  it.each(taken)('both take %j and store the same condition', (row, stored) => {
    expect(byV1(row)).toEqual(stored);
    expect(byShlink(row)).toEqual(stored);
  });

  it.each(refused.map((row) => [row]))('both refuse %j with a 400', (row) => {
    expect(byV1(row)).toBe(400);
    expect(byShlink(row)).toBe(400);
  });
});

describe('redirect conditions: where the two shapes differ, and only there', () => {
  it('reads Shlink’s own date spellings as the same ISO date-times, and their impossible days not at all', () => {
    expect(byShlink({ type: 'after-date', value: '2026-01-01' })).toEqual({
      type: 'after-date',
      value: '2026-01-01T00:00:00.000Z',
    });
    expect(byShlink({ type: 'before-date', value: '2026-12-31 09:00+0900' })).toEqual({
      type: 'before-date',
      value: '2026-12-31T00:00:00.000Z',
    });
    expect(byShlink({ type: 'before-date', value: '2026-02-30' })).toBe(400);
  });

  it('lets Shlink send the members a kind does not use (its clients send null), where v1 refuses them', () => {
    const shlink = [
      { longUrl: 'https://example.com/to', conditions: [{ type: 'device', matchKey: 'k', matchValue: 'ios' }] },
    ];
    expect(parseShlinkRedirectRules(shlink, urlRules)[0]?.conditions).toEqual([{ type: 'device', value: 'ios' }]);
    expect(byV1({ type: 'device', key: 'k', value: 'ios' })).toBe(400);
  });
});
