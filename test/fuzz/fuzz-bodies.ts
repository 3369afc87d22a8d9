import fc from 'fast-check';

// Request bodies for the contract fuzzer: mostly shorten requests, valid and not, and every way
// a body can be wrong below the JSON level (bytes, escapes, framing-size).
const utf8 = (text: string) => Buffer.from(text, 'utf8');

const hangulSyllable = fc.integer({ min: 0xac00, max: 0xd7a3 }).map((code) => String.fromCodePoint(code));
export const hangul = fc.array(hangulSyllable, { minLength: 1, maxLength: 6 }).map((chars) => chars.join(''));

const url = fc.oneof(
  { weight: 4, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  { weight: 2, arbitrary: hangul.map((text) => `https://example.com/${text}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'javascript:alert(1)',
      'https://user@example.com/',
      'http://localhost:8080/loop',
      ' https://example.com/trim ',
      'https://exa mple.com',
      'ftp://example.com',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 2000, max: 9000 }).map((n) => `https://example.com/${'x'.repeat(n)}`) },
);
const customCode = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/),
  hangul,
  hangul.map((text) => text.normalize('NFD')),
  fc.constantFrom('', 'api', 'a b', 'K', '\u212a', 'ﾊ', '😀', 'a'.repeat(65), 'ㅋㅋ', '\u1100'),
);
const wrongType = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
);
// Redirect rules: well-formed ones of every condition kind, and each way one can break a rule.
const condition = fc.oneof(
  fc.record({ type: fc.constant('device'), value: fc.constantFrom('android', 'ios', 'mobile', 'Desktop', 'toaster') }),
  fc.record({ type: fc.constant('browser'), value: fc.constantFrom('chrome', 'firefox', 'netscape') }),
  fc.record({ type: fc.constant('language'), value: fc.constantFrom('ko', 'ko-KR', 'en', '한국어', '') }),
  fc.record(
    {
      type: fc.constantFrom('query-param', 'any-value-query-param', 'valueless-query-param'),
      key: fc.string({ maxLength: 6 }),
      value: fc.string({ maxLength: 6 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant('geolocation-country-code'), value: fc.constantFrom('KR', 'us', 'KOR', '1') }),
  fc.record({
    type: fc.constantFrom('before-date', 'after-date'),
    value: fc.constantFrom('2026-12-01T00:00:00Z', '2026-12-01T09:00:00+09:00', '2026-12-01', 'soon'),
  }),
  fc.record({
    type: fc.constant('ip-address'),
    value: fc.constantFrom('192.0.2.1', '10.0.0.0/8', '2001:db8::/32', '1.2.3.4/40', 'x'),
  }),
  fc.record({ type: fc.constantFrom('planet', 7), value: fc.string({ maxLength: 4 }) }),
  wrongType,
);
const redirectRule = fc.record(
  {
    target_url: fc.oneof({ weight: 4, arbitrary: url }, { weight: 1, arbitrary: wrongType }),
    conditions: fc.oneof(fc.array(condition, { minLength: 0, maxLength: 11 }), wrongType),
  },
  { requiredKeys: [] },
);
const ruleFields = {
  redirect_rules: fc.oneof(
    fc.array(redirectRule, { maxLength: 3 }),
    fc.array(redirectRule, { minLength: 21, maxLength: 22 }),
    wrongType,
  ),
  max_visits: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.constantFrom(1.5, 2 ** 60, '3'), wrongType),
  valid_since: fc.oneof(
    fc.constantFrom('2026-01-01T00:00:00Z', '2099-01-01T00:00:00+09:00', '2026-01-01', 'now', ''),
    wrongType,
  ),
  forward_query: fc.oneof(fc.boolean(), wrongType),
};

const shortenObject = fc.record(
  {
    original_url: fc.oneof({ weight: 5, arbitrary: url }, { weight: 1, arbitrary: wrongType }),
    custom_code: fc.oneof({ weight: 4, arbitrary: customCode }, { weight: 1, arbitrary: wrongType }),
    expire_duration: fc.oneof(
      fc.constantFrom('24h', '48h', '1week', '1month', '', '2weeks', '24H', '1 week'),
      wrongType,
    ),
    // v1 only (the legacy dialect ignores it): 4–128 code points, else a 400 naming the rule.
    password: fc.oneof(
      fc.string({ maxLength: 140 }),
      fc.constantFrom('비밀번호', 'abc', '😀😀😀😀', 'x'.repeat(129)),
      wrongType,
    ),
    extra: fc.jsonValue({ maxDepth: 2 }),
    // Link options (v1 and PATCH): titles up to and past 200 characters, tags good and bad.
    title: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('x'.repeat(200), 'x'.repeat(201), '회의'), wrongType),
    tags: fc.oneof(
      fc.array(fc.constantFrom('work', 'Work', '한글', 'a_b-1', 'two words', '', 'x'.repeat(33), '😀'), {
        maxLength: 12,
      }),
      wrongType,
    ),
    // Rules and limits (v1 and PATCH).
    ...ruleFields,
  },
  { requiredKeys: [] },
);

/** Bodies: valid and broken JSON, wrong types, huge strings, invalid UTF-8, surrogates, doubled keys. */
export const fuzzBody: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 8, arbitrary: shortenObject.map((value) => utf8(JSON.stringify(value))) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(url, fc.constantFrom('\\ud800', '\\udfff', '\\ud83d', '\\ude00x', '\\ud83d\\ude00'))
      .map(([u, surrogate]) => utf8(`{"original_url":${JSON.stringify(u).slice(0, -1)}${surrogate}"}`)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom([0xff], [0xc3, 0x28], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]), fc.boolean())
      .map(([bad, inCode]) =>
        Buffer.concat([
          utf8(
            inCode
              ? '{"original_url":"https://example.com/a","custom_code":"a'
              : '{"original_url":"https://example.com/',
          ),
          Buffer.from(bad),
          utf8('"}'),
        ]),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(url, url)
      .map(([first, second]) =>
        utf8(`{"original_url":${JSON.stringify(first)},"original_url":${JSON.stringify(second)}}`),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 16_000, max: 40_000 })
      .map((n) => utf8(`{"original_url":"https://example.com/","pad":"${'x'.repeat(n)}"}`)),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        '',
        ' ',
        '{',
        '[]',
        '1',
        '"text"',
        'null',
        'true',
        'original_url=https://example.com',
        '\ufeff{"original_url":"https://example.com/bom"}',
      )
      .map(utf8),
  },
  { weight: 1, arbitrary: fc.jsonValue().map((value) => utf8(JSON.stringify(value) ?? 'null')) },
);
