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
