/**
 * Hostile input, as one table that runs twice: through the core handler (as the extension's
 * service worker serves it) and over real HTTP to the server process. Each case names the exact
 * status and envelope docs/api.md documents; the runner also checks, for every answer, that it is
 * never a 500, carries the security headers, and leaks no stack trace or SQL.
 */

export const BASE_URL = 'https://sho.rt';

export interface CaseRequest {
  method: string;
  /** Sent as is over HTTP; the handler gets it through `new URL` (which percent-encodes). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** No Content-Length: a chunked (streamed) body. */
  chunked?: boolean;
}

export interface Expectation {
  status: number;
  /** The error envelope `{"status":"error","message":…}` (exactly those two members). */
  error?: RegExp;
  /** The success envelope; these `data` members must match exactly. */
  data?: Record<string, string>;
  /** Response headers that must have exactly this value (or match), by lower-case name. */
  headers?: Record<string, string | RegExp | null>;
  /** The small HTML error page. */
  html?: boolean;
  /** No body at all (HEAD, the redirect). */
  empty?: boolean;
}

export interface HostileCase {
  group: string;
  name: string;
  request: CaseRequest;
  expect: Expectation;
  /** Where HTTP itself answers differently (the handler never sees such bytes on the wire). */
  overHttp?: Expectation;
  /** Requests only a socket can send (oversized headers). */
  httpOnly?: boolean;
}

/** Links made (v1, custom code) before the table runs; the resolve cases read them. */
export const SEEDS: Array<{ code: string; url: string }> = [
  { code: '한글', url: 'https://example.com/hangul' },
  { code: 'Promo', url: 'https://example.com/promo' },
  { code: '정보'.normalize('NFD'), url: 'https://example.com/jeongbo' },
  { code: 'crlf', url: 'https://example.com/%0D%0ASet-Cookie:%20a=1' },
  { code: 'idn', url: 'https://例え.jp/パス?q=値' },
  { code: 'hangulurl', url: 'https://한국.kr/경로' },
];

const JSON_TYPE = { 'content-type': /^application\/json/ };
const json = (value: unknown) => JSON.stringify(value);
const post = (path: string, body: unknown, headers?: Record<string, string>): CaseRequest => ({
  method: 'POST',
  path,
  body: typeof body === 'string' ? body : json(body),
  headers: { 'Content-Type': 'application/json', ...headers },
});
const v1 = (body: unknown) => post('/api/v1/shorten', body);
const legacy = (body: unknown) => post('/api.php', body);
const get = (path: string, headers?: Record<string, string>): CaseRequest => ({ method: 'GET', path, headers });

let urlCount = 0;
/** A fresh target URL, so creates never collide on anything but the code under test. */
const target = () => `https://example.com/hostile/${++urlCount}`;

const NOT_OBJECT = /^The request body must be a JSON object/;
const NOT_JSON = /^The request body is not valid JSON/;
const EMPTY = /^The request body is empty/;
const DEEP_SURROGATE =
  /^(?:a\.a\.a|\[0\]\[0\]\[0\]).*… has a lone UTF-16 surrogate \(an unpaired \\ud800-\\udfff escape\); send valid Unicode text\.$/;
const TOO_LARGE = /^The request body must be at most 16384 bytes\.$/;
const URL_REQUIRED = /^original_url is required\.$/;
const URL_STRING = /^original_url must be a string\.$/;
const CODE_STRING = /^custom_code must be a string\.$/;
const EXPIRY = /^expire_duration must be one of 24h, 48h, 1week, 1month\.$/;
const SCHEME = /^original_url must use http or https, not /;
const ABSOLUTE = /^original_url must be an absolute http or https URL/;
const WHITESPACE = /^original_url must not contain whitespace or control characters/;
const CREDENTIALS = /^original_url must not contain user credentials/;
const OWN_HOST = /^original_url must not point at this service .*; that link would loop\.$/;
const TOO_LONG = /^original_url must be at most 2048 characters long; it has \d+\.$/;
const CODE_CHARS = /^custom_code may only contain Hangul, ASCII letters, digits, '_' and '-'; found /;
const CODE_JAMO = /^custom_code has Hangul jamo that do not form a syllable/;
const CODE_LENGTH = /^custom_code must be 1 to 64 characters long; it has \d+\.$/;
const RESERVED = /^custom_code '.+' is reserved by the service; choose another code\.$/;
const TAKEN_V1 = /^custom_code '.+' is already in use; choose another code\.$/;
const TAKEN_LEGACY = /^custom_code '.+' is already in use; it can be used after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.$/;
const NOT_FOUND = /^There is no short link or page at this address\.$/;
const RAW_NON_ASCII = /^The URL has characters outside ASCII that are not percent-encoded; percent-encode them/;

/** A JSON shorten body of exactly `size` bytes (padded with an unknown field). */
export function bodyOfSize(size: number, url = 'https://example.com/sized'): string {
  const empty = json({ original_url: url, pad: '' });
  return json({ original_url: url, pad: 'x'.repeat(size - empty.length) });
}

const bodies: HostileCase[] = [
  ...[
    ['malformed JSON (cut off)', '{"original_url":'],
    ['malformed JSON (single quotes)', "{'original_url':'https://example.com'}"],
    ['malformed JSON (trailing comma)', '{"original_url":"https://example.com",}'],
    ['not JSON at all', 'original_url=https://example.com'],
    ['NUL bytes', '\u0000\u0000'],
  ].map(([name, body]) => ({
    group: 'bodies',
    name: name as string,
    request: v1(body as string),
    expect: { status: 400, error: NOT_JSON },
  })),
  ...[
    ['a JSON array', '[]'],
    ['an array of the right object', json([{ original_url: 'https://example.com' }])],
    ['a JSON number', '42'],
    ['a JSON string', json('https://example.com')],
    ['JSON null', 'null'],
    ['JSON true', 'true'],
    ['an array nested 4000 deep', `${'['.repeat(4000)}${']'.repeat(4000)}`],
  ].map(([name, body]) => ({
    group: 'bodies',
    name: name as string,
    request: legacy(body as string),
    expect: { status: 400, error: NOT_OBJECT },
  })),
  // A lone surrogate deep inside: the check that finds it must not run out of call stack (a 500).
  ...[v1, legacy].map((endpoint) => ({
    group: 'bodies',
    name: `an array nested 4000 deep around a lone \\ud83d (${endpoint === v1 ? 'v1' : 'legacy'})`,
    request: endpoint(`${'['.repeat(4000)}"\\ud83d"${']'.repeat(4000)}`),
    expect: { status: 400, error: DEEP_SURROGATE },
  })),
  { group: 'bodies', name: 'an empty body', request: v1(''), expect: { status: 400, error: EMPTY } },
  { group: 'bodies', name: 'a body of whitespace', request: legacy(' \r\n\t '), expect: { status: 400, error: EMPTY } },
  {
    group: 'bodies',
    name: 'no body and no Content-Type',
    request: { method: 'POST', path: '/api/v1/shorten' },
    expect: { status: 400, error: EMPTY },
  },
  ...(
    [
      ['original_url a number', { original_url: 42 }, URL_STRING],
      ['original_url an array', { original_url: ['https://example.com'] }, URL_STRING],
      ['original_url an object', { original_url: { href: 'https://example.com' } }, URL_STRING],
      ['original_url true', { original_url: true }, URL_STRING],
      ['original_url null', { original_url: null }, URL_REQUIRED],
      ['original_url missing', { url: 'https://example.com' }, URL_REQUIRED],
      ['original_url empty', { original_url: '' }, URL_REQUIRED],
      ['custom_code a number', { original_url: 'https://example.com', custom_code: 42 }, CODE_STRING],
      ['custom_code false', { original_url: 'https://example.com', custom_code: false }, CODE_STRING],
      ['custom_code an array', { original_url: 'https://example.com', custom_code: ['a'] }, CODE_STRING],
      ['custom_code an object', { original_url: 'https://example.com', custom_code: {} }, CODE_STRING],
      ['expire_duration an object', { original_url: 'https://example.com', expire_duration: {} }, EXPIRY],
    ] as const
  ).map(([name, body, error]) => ({ group: 'bodies', name, request: v1(body), expect: { status: 400, error } })),
  {
    group: 'bodies',
    name: '__proto__ carrying original_url is not read (no prototype pollution)',
    request: v1('{"__proto__":{"original_url":"https://example.com/proto"}}'),
    expect: { status: 400, error: URL_REQUIRED },
  },
  {
    group: 'bodies',
    name: '__proto__ carrying custom_code is ignored: a generated code',
    request: v1('{"original_url":"https://example.com/proto2","__proto__":{"custom_code":"polluted"}}'),
    expect: { status: 201, data: { original_url: 'https://example.com/proto2' } },
  },
  {
    group: 'bodies',
    name: 'constructor.prototype is ignored: a generated code',
    request: v1('{"original_url":"https://example.com/ctor","constructor":{"prototype":{"custom_code":"polluted"}}}'),
    expect: { status: 201, data: { original_url: 'https://example.com/ctor' } },
  },
  {
    group: 'bodies',
    name: 'a duplicated key: the last one counts, as in JSON.parse',
    request: v1('{"original_url":"javascript:alert(1)","original_url":"https://example.com/dup"}'),
    expect: { status: 201, data: { original_url: 'https://example.com/dup' } },
  },
  {
    group: 'bodies',
    name: 'JSON sent as text/plain (legacy clients)',
    request: post('/api.php', { original_url: 'https://example.com/plain' }, { 'Content-Type': 'text/plain' }),
    expect: { status: 200, data: { original_url: 'https://example.com/plain' } },
  },
  {
    group: 'bodies',
    name: 'exactly 16 KiB with Content-Length',
    request: v1(bodyOfSize(16 * 1024, 'https://example.com/16k')),
    expect: { status: 201, data: { original_url: 'https://example.com/16k' } },
  },
  {
    group: 'bodies',
    name: 'exactly 16 KiB, chunked',
    request: { ...v1(bodyOfSize(16 * 1024, 'https://example.com/16kc')), chunked: true },
    expect: { status: 201, data: { original_url: 'https://example.com/16kc' } },
  },
  {
    group: 'bodies',
    name: '16 KiB + 1 with Content-Length',
    request: v1(bodyOfSize(16 * 1024 + 1)),
    expect: { status: 413, error: TOO_LARGE },
  },
  {
    group: 'bodies',
    name: '16 KiB + 1, chunked (no Content-Length)',
    request: { ...v1(bodyOfSize(16 * 1024 + 1)), chunked: true },
    expect: { status: 413, error: TOO_LARGE },
  },
  {
    group: 'bodies',
    name: '1 MiB with Content-Length: the 413 still reaches the client',
    request: legacy(bodyOfSize(1024 * 1024)),
    expect: { status: 413, error: TOO_LARGE },
  },
  {
    group: 'bodies',
    name: '1 MiB chunked: the 413 still reaches the client',
    request: { ...legacy(bodyOfSize(1024 * 1024)), chunked: true },
    expect: { status: 413, error: TOO_LARGE },
  },
];

const REFUSED_SCHEMES = [
  'JaVaScRiPt:alert(1)',
  'javascript://example.com/%0Aalert(1)',
  'DATA:text/html,<script>alert(1)</script>',
  'Data:text/html;base64,PHNjcmlwdD4=',
  'FiLe:///etc/passwd',
  'file://localhost/etc/passwd',
  'VBScript:msgbox(1)',
  'FTP://example.com/file',
  'ws://example.com/socket',
  'WSS://example.com/socket',
  'blob:https://example.com/0b6b2d6e',
  'about:blank',
  'chrome://settings',
  'view-source:https://example.com',
  'mailto:someone@example.com',
  'tel:+821012345678',
  'intent://example.com#Intent;scheme=https;end',
];

/** The own host of BASE_URL, in every spelling a URL parser takes. */
const OWN_HOST_SPELLINGS = [
  'https://sho.rt/x',
  'HTTPS://SHO.RT/x',
  'https://Sho.Rt/x',
  'https://sho.rt./x',
  'https://SHO.RT.:443/x',
  'https://sho.rt:443/x',
  'http://sho.rt/x',
  'https://sho。rt/x',
  'https://ｓｈｏ.ｒｔ/x',
  'https://sho%2Ert/x',
];

const urls: HostileCase[] = [
  ...REFUSED_SCHEMES.map((url) => ({
    group: 'urls',
    name: `refuses the scheme of ${url}`,
    request: v1({ original_url: url }),
    expect: { status: 400, error: SCHEME },
  })),
  ...[
    'java\tscript:alert(1)',
    'javascript\n:alert(1)',
    'java\r\nscript:alert(1)',
    'jav\u0000ascript:alert(1)',
    'https://exa\tmple.com/',
    'https://example.com/a\nb',
    'https://example.com/a\r\nSet-Cookie: a=1',
    'https://example.com/\u2028x',
    'https://example.com/a b',
    'https://example.com/\u200Bx',
    'https://example.com/\u202Ex',
  ].map((url) => ({
    group: 'urls',
    name: `refuses inner whitespace or control characters: ${JSON.stringify(url)}`,
    request: v1({ original_url: url }),
    expect: { status: 400, error: WHITESPACE },
  })),
  ...['jav&#x09;ascript:alert(1)', 'example.com', '//example.com/x', 'https:example.com', 'https://', 'http:\\\\x'].map(
    (url) => ({
      group: 'urls',
      name: `refuses a URL that is not absolute http(s) with a host: ${JSON.stringify(url)}`,
      request: v1({ original_url: url }),
      expect: { status: 400, error: ABSOLUTE },
    }),
  ),
  ...[
    'https://user@example.com/',
    'https://user:pass@example.com/',
    'https://@example.com/',
    'https://:@example.com/',
    'https://example.com@evil.example/',
    'HTTP://a%40b@example.com/',
  ].map((url) => ({
    group: 'urls',
    name: `refuses credentials: ${url}`,
    request: v1({ original_url: url }),
    expect: { status: 400, error: CREDENTIALS },
  })),
  ...OWN_HOST_SPELLINGS.map((url) => ({
    group: 'urls',
    name: `refuses the service's own host: ${url}`,
    request: v1({ original_url: url }),
    expect: { status: 400, error: OWN_HOST },
  })),
  {
    group: 'urls',
    name: 'accepts the own host name on another port (another service)',
    request: v1({ original_url: 'https://sho.rt:8443/x' }),
    expect: { status: 201, data: { original_url: 'https://sho.rt:8443/x' } },
  },
  {
    group: 'urls',
    name: 'refuses 2049 characters',
    request: v1({ original_url: `https://example.com/${'a'.repeat(2049 - 20)}` }),
    expect: { status: 400, error: TOO_LONG },
  },
  {
    group: 'urls',
    name: 'accepts exactly 2048 characters',
    request: v1({ original_url: `https://example.com/${'b'.repeat(2048 - 20)}` }),
    expect: { status: 201, data: { original_url: `https://example.com/${'b'.repeat(2048 - 20)}` } },
  },
  {
    group: 'urls',
    name: 'refuses a 10,000-character URL (inside the body limit)',
    request: v1({ original_url: `https://example.com/${'c'.repeat(10_000)}` }),
    expect: { status: 400, error: TOO_LONG },
  },
  {
    group: 'urls',
    name: 'trims surrounding whitespace, CR and LF included',
    request: v1({ original_url: ' \t\r\n https://example.com/trimmed \r\n' }),
    expect: { status: 201, data: { original_url: 'https://example.com/trimmed' } },
  },
  {
    group: 'urls',
    name: 'accepts an IDN host with a Japanese path, stored as submitted',
    request: v1({ original_url: 'https://例え.jp/パス2' }),
    expect: { status: 201, data: { original_url: 'https://例え.jp/パス2' } },
  },
  {
    group: 'urls',
    name: 'accepts a Hangul host and path, stored as submitted',
    request: v1({ original_url: 'https://한국.kr/경로2?검색=값' }),
    expect: { status: 201, data: { original_url: 'https://한국.kr/경로2?검색=값' } },
  },
  {
    group: 'urls',
    name: 'accepts percent-encoded CR/LF (they stay encoded in the Location)',
    request: v1({ original_url: 'https://example.com/%0d%0aX-Injected:%201' }),
    expect: { status: 201, data: { original_url: 'https://example.com/%0d%0aX-Injected:%201' } },
  },
];

const code = (customCode: unknown, url = target()) => v1({ original_url: url, custom_code: customCode });
const refusedCode = (name: string, customCode: string, error: RegExp): HostileCase => ({
  group: 'codes',
  name,
  request: code(customCode),
  expect: { status: 400, error },
});

const codes: HostileCase[] = [
  {
    group: 'codes',
    name: 'NFD Hangul of an NFC code is the same code: 409',
    request: code('한글'.normalize('NFD')),
    expect: { status: 409, error: TAKEN_V1 },
  },
  {
    group: 'codes',
    name: 'NFC Hangul of a code made in NFD is the same code: 409 on the legacy endpoint, with its date',
    request: legacy({ original_url: target(), custom_code: '정보' }),
    expect: { status: 409, error: TAKEN_LEGACY },
  },
  {
    group: 'codes',
    name: 'compatibility jamo are accepted as they are',
    request: code('ㅋㅋㅋ', 'https://example.com/kkk'),
    expect: { status: 201, data: { code: 'ㅋㅋㅋ', short_url: `${BASE_URL}/ㅋㅋㅋ/` } },
  },
  {
    group: 'codes',
    name: 'conjoining jamo are stored composed (NFC)',
    request: code('\u1112\u1161\u11AB\u1100\u1173\u11AF\u1109\u1161\u11BC', 'https://example.com/nfd'),
    expect: { status: 201, data: { code: '한글상' } },
  },
  ...(
    [
      ['the choseong filler U+115F', 'a\u115Fb'],
      ['the jungseong filler U+1160', 'a\u1160b'],
      ['the compatibility filler U+3164', 'a\u3164b'],
      ['the halfwidth filler U+FFA0', 'a\uFFA0b'],
      ['halfwidth Hangul jamo', '\uFFA1\uFFC2'],
      ['fullwidth Latin letters', 'ＡＢＣ'],
      ['fullwidth digits', '１２３'],
      ['the Kelvin sign (NFC makes it K)', '\u212Aelvin'],
      ['the Angstrom sign (NFC makes it Å)', '\u212Bngstrom'],
      ['the Ohm sign', 'z\u2126'],
      ['long s', '\u017Fecret'],
      ['dotless i', 'adm\u0131n'],
      ['capital I with dot', '\u0130stanbul'],
      ['sharp s', 'stra\u00DFe'],
      ['Cyrillic a in paypal', 'p\u0430ypal'],
      ['Cyrillic e and o', '\u0435x\u0430mple'],
      ['Greek omicron', 'g\u03BFogle'],
      ['the zero-width space', 'pro\u200Bmo'],
      ['the zero-width non-joiner', 'pro\u200Cmo'],
      ['the zero-width joiner', 'pro\u200Dmo'],
      ['the word joiner', 'pro\u2060mo'],
      ['a byte order mark', '\uFEFFpromo'],
      ['a soft hyphen', 'pro\u00ADmo'],
      ['right-to-left override', 'abc\u202Etxt'],
      ['left-to-right embedding', '\u202Aabc'],
      ['a bidi isolate', '\u2066abc\u2069'],
      ['the left-to-right mark', 'abc\u200E'],
      ['the Arabic letter mark', 'abc\u061C'],
      ['a space inside', 'pro mo'],
      ['a leading space', ' promo2'],
      ['a trailing space', 'promo2 '],
      ['a tab', 'pro\tmo'],
      ['a newline', 'pro\nmo'],
      ['a no-break space', 'pro\u00A0mo'],
      ['an ideographic space', 'pro\u3000mo'],
      ['a dot', 'a.b'],
      ['two dots', '..'],
      ['a slash', 'a/b'],
      ['a backslash', 'a\\b'],
      ['a percent sign', '%41'],
      ['a question mark', 'a?b'],
      ['a hash', 'a#b'],
      ['angle brackets', '<script>'],
      ['a NUL', 'a\u0000b'],
      ['an emoji', 'hi😀'],
      ['a combining accent', 'cafe\u0301'],
      ['a precomposed accent', 'café'],
      ['CJK ideographs', '漢字'],
    ] as const
  ).map(([name, customCode]) => refusedCode(`refuses ${name}`, customCode, CODE_CHARS)),
  // Caught when the body is parsed, before any field rule: it is not text at all.
  refusedCode('refuses a lone surrogate', 'a\uD800b', /^custom_code has a lone UTF-16 surrogate/),
  refusedCode('refuses a lone leading consonant jamo', '\u1100', CODE_JAMO),
  refusedCode('refuses a lone vowel jamo', '\u1161', CODE_JAMO),
  refusedCode('refuses two leading consonants', '\u1100\u1100', CODE_JAMO),
  refusedCode('refuses archaic jamo that NFC does not compose', '\u1113\u1161', CODE_JAMO),
  ...['promo', 'PROMO', 'pRoMo'].map((variant) => ({
    group: 'codes',
    name: `ASCII case variant ${variant} of Promo is the same code: 409`,
    request: code(variant),
    expect: { status: 409, error: TAKEN_V1 },
  })),
  ...['api', 'API', 'Health', 'admin', 'ASSETS', 'static', 'docs', 'login', 'www', 'WwW'].map((word) =>
    refusedCode(`refuses the reserved word ${word}`, word, RESERVED),
  ),
  refusedCode('refuses api.php (a dot, and reserved)', 'api.php', CODE_CHARS),
  {
    group: 'codes',
    name: 'accepts a word that merely starts like a reserved one',
    request: code('apis', 'https://example.com/apis'),
    expect: { status: 201, data: { code: 'apis' } },
  },
  {
    group: 'codes',
    name: 'accepts 64 Hangul syllables (192 bytes: characters count, not bytes)',
    request: code('가'.repeat(64), 'https://example.com/64'),
    expect: { status: 201, data: { code: '가'.repeat(64) } },
  },
  refusedCode('refuses 65 Hangul syllables', '가'.repeat(65), CODE_LENGTH),
  {
    group: 'codes',
    name: 'accepts 64 syllables sent as 128 conjoining jamo (length counted after NFC)',
    request: code('나'.repeat(64).normalize('NFD'), 'https://example.com/64nfd'),
    expect: { status: 201, data: { code: '나'.repeat(64) } },
  },
  refusedCode('refuses 65 syllables sent as conjoining jamo', '다'.repeat(65).normalize('NFD'), CODE_LENGTH),
  refusedCode('refuses 65 ASCII letters', 'a'.repeat(65), CODE_LENGTH),
  {
    group: 'codes',
    name: 'an empty custom_code means "generate one"',
    request: code('', 'https://example.com/empty-code'),
    expect: { status: 201, data: { original_url: 'https://example.com/empty-code' } },
  },
  {
    group: 'codes',
    name: 'a null custom_code means "generate one"',
    request: code(null, 'https://example.com/null-code'),
    expect: { status: 201, data: { original_url: 'https://example.com/null-code' } },
  },
];

const expiries: HostileCase[] = [
  ...[
    '1 month',
    '1MONTH',
    '1Month',
    '1week ',
    ' 24h',
    '24H',
    '0',
    '-1',
    '24',
    '48',
    '1w',
    'P1D',
    'never',
    '2026-12-31',
    '2026-12-31 00:00:00',
    '2026-12-31T00:00:00.000Z',
    '24h\u0000',
  ].map((value) => ({
    group: 'expiry',
    name: `refuses expire_duration ${JSON.stringify(value)}`,
    request: v1({ original_url: target(), expire_duration: value }),
    expect: { status: 400, error: EXPIRY },
  })),
  ...[24, 0, -1, 1.5, 86400, true, ['24h']].map((value) => ({
    group: 'expiry',
    name: `refuses expire_duration ${JSON.stringify(value)} (not a string)`,
    request: legacy({ original_url: target(), expire_duration: value }),
    expect: { status: 400, error: EXPIRY },
  })),
  ...[null, ''].map((value) => ({
    group: 'expiry',
    name: `takes expire_duration ${JSON.stringify(value)} as the default`,
    request: v1({ original_url: 'https://example.com/default-expiry', expire_duration: value }),
    expect: { status: 201, data: { original_url: 'https://example.com/default-expiry' } },
  })),
];

const HANGUL = '%ED%95%9C%EA%B8%80';
const redirectTo = (location: string): Expectation => ({
  status: 302,
  empty: true,
  headers: { location, 'cache-control': /^private, max-age=\d+$/ },
});
const notFound: Expectation = { status: 404, error: NOT_FOUND, headers: JSON_TYPE };
const notAllowed: Expectation = {
  status: 405,
  error: /is not allowed here; use GET, HEAD\.$/,
  headers: { allow: 'GET, HEAD' },
};

const paths: HostileCase[] = [
  {
    group: 'paths',
    name: 'percent-encoded Hangul',
    request: get(`/${HANGUL}`),
    expect: redirectTo('https://example.com/hangul'),
  },
  {
    group: 'paths',
    name: 'percent-encoded Hangul with a trailing slash and a query',
    request: get(`/${HANGUL}/?utm=x`),
    expect: redirectTo('https://example.com/hangul'),
  },
  {
    group: 'paths',
    name: 'lower-case hex',
    request: get(`/${HANGUL.toLowerCase()}`),
    expect: redirectTo('https://example.com/hangul'),
  },
  {
    group: 'paths',
    name: 'raw Hangul: the handler gets it percent-encoded; on the wire it is not HTTP/1.1 (400)',
    request: get('/한글'),
    expect: redirectTo('https://example.com/hangul'),
    overHttp: { status: 400, error: RAW_NON_ASCII },
  },
  {
    group: 'paths',
    name: 'NFD Hangul, percent-encoded',
    request: get(`/${encodeURIComponent('한글'.normalize('NFD'))}`),
    expect: redirectTo('https://example.com/hangul'),
  },
  {
    group: 'paths',
    name: 'NFC path of a code made in NFD',
    request: get(`/${encodeURIComponent('정보')}/`),
    expect: redirectTo('https://example.com/jeongbo'),
  },
  {
    group: 'paths',
    name: 'ASCII case variant',
    request: get('/PROMO'),
    expect: redirectTo('https://example.com/promo'),
  },
  {
    group: 'paths',
    name: 'an IDN link redirects to its ASCII form',
    request: get('/idn'),
    expect: redirectTo('https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%E5%80%A4'),
  },
  {
    group: 'paths',
    name: 'a Hangul URL redirects to its ASCII form',
    request: get('/hangulurl/'),
    expect: redirectTo('https://xn--3e0b707e.kr/%EA%B2%BD%EB%A1%9C'),
  },
  {
    group: 'paths',
    name: 'encoded CR/LF stay encoded in the Location: no header injection',
    request: get('/crlf'),
    expect: { ...redirectTo('https://example.com/%0D%0ASet-Cookie:%20a=1'), headers: { 'set-cookie': null } },
  },
  ...[
    ['a lone %', '/%'],
    ['a truncated escape', '/%E'],
    ['a non-hex escape', '/%ZZ'],
    ['%-escape then garbage', '/abc%G1'],
    ['a truncated UTF-8 sequence', '/%ED%95'],
    ['Hangul with its last byte cut', '/%ED%95%9C%EA%B8'],
    ['a lone continuation byte', '/%80'],
    ['0xFF', '/%FF'],
    ['overlong UTF-8 for /', '/%C0%AF'],
    ['overlong UTF-8 for A', '/%C1%81'],
    ['3-byte overlong /', '/%E0%80%AF'],
    ['4-byte overlong /', '/%F0%80%80%AF'],
    ['an encoded UTF-16 surrogate', '/%ED%A0%80'],
    ['a code point past U+10FFFF', '/%F4%90%80%80'],
  ].map(([name, path]) => ({
    group: 'paths',
    name: `malformed encoding is a 404, never a 500: ${name}`,
    request: get(path as string),
    expect: notFound,
  })),
  {
    group: 'paths',
    name: 'double-encoded Hangul is decoded once only: 404',
    request: get(`/${encodeURIComponent(HANGUL)}`),
    expect: notFound,
  },
  {
    group: 'paths',
    name: 'double-encoded ASCII (%2550romo is "%50romo"): 404',
    request: get('/%2550romo'),
    expect: notFound,
  },
  { group: 'paths', name: 'an encoded slash', request: get('/a%2Fb'), expect: notFound },
  {
    group: 'paths',
    name: 'encoded dot segments are dot segments (URL rules): /%2e%2e is /, the API description',
    request: get('/%2e%2e'),
    expect: { status: 200, headers: JSON_TYPE },
  },
  { group: 'paths', name: 'path traversal', request: get('/..%2f..%2fetc%2fpasswd'), expect: notFound },
  { group: 'paths', name: 'a 10,000-character segment', request: get(`/${'a'.repeat(10_000)}`), expect: notFound },
  {
    group: 'paths',
    name: 'a script tag in the path is not reflected into the HTML page',
    request: get('/%3Cscript%3Ealert(1)%3C%2Fscript%3E', { Accept: 'text/html' }),
    expect: { status: 404, html: true, headers: { 'content-type': /^text\/html/ } },
  },
  {
    group: 'paths',
    name: 'HEAD of a short URL: 302, no body',
    request: { method: 'HEAD', path: `/${HANGUL}` },
    expect: redirectTo('https://example.com/hangul'),
  },
  {
    group: 'paths',
    name: 'HEAD of an unknown code: 404, no body',
    request: { method: 'HEAD', path: '/nothing-here' },
    expect: { status: 404, empty: true },
  },
  ...['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'].map((method) => ({
    group: 'paths',
    name: `${method} on a short URL: 405 with Allow`,
    request: { method, path: `/${HANGUL}`, body: '{}' },
    expect: notAllowed,
  })),
  {
    group: 'paths',
    name: 'TRACE on a short URL: 405 with Allow (fetch cannot even make such a Request)',
    request: { method: 'TRACE', path: `/${HANGUL}` },
    expect: notAllowed,
    httpOnly: true,
  },
  {
    group: 'paths',
    name: 'oversized headers: 431 with the envelope',
    request: get('/promo', { 'X-Big': 'a'.repeat(20_000) }),
    expect: { status: 431, error: /^The request headers are too large\.$/ },
    httpOnly: true,
  },
  {
    group: 'paths',
    name: 'raw non-ASCII (ÿ) in the request target: 404 through the handler, 400 on the wire',
    request: get('/a\u00FFb'),
    expect: notFound,
    overHttp: { status: 400, error: RAW_NON_ASCII },
  },
];

/** Every case for a service whose base URL is BASE_URL. */
export const CASES: HostileCase[] = [...bodies, ...urls, ...codes, ...expiries, ...paths];

/** The own host when the service runs on localhost:`port`: every loopback spelling loops. */
export function loopbackCases(port: number): HostileCase[] {
  const refused = [
    `http://localhost:${port}/x`,
    `http://LOCALHOST:${port}/x`,
    `http://localhost.:${port}/x`,
    `http://127.0.0.1:${port}/x`,
    `http://127.1:${port}/x`,
    `http://127.0.0.2:${port}/x`,
    `http://0x7f000001:${port}/x`,
    `http://2130706433:${port}/x`,
    `http://0177.0.0.1:${port}/x`,
    `http://[::1]:${port}/x`,
    `http://[0:0:0:0:0:0:0:1]:${port}/x`,
    `http://[::ffff:127.0.0.1]:${port}/x`,
    `http://0.0.0.0:${port}/x`,
    `http://app.localhost:${port}/x`,
  ];
  return [
    ...refused.map((url) => ({
      group: 'own host on localhost',
      name: `refuses ${url}`,
      request: v1({ original_url: url }),
      expect: { status: 400, error: OWN_HOST },
    })),
    {
      group: 'own host on localhost',
      name: 'accepts localhost on another port (another service)',
      request: v1({ original_url: `http://localhost:${port + 1}/x` }),
      expect: { status: 201, data: { original_url: `http://localhost:${port + 1}/x` } },
    },
  ];
}
