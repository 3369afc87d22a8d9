import { describe, expect, it } from 'vitest';
import {
  codeKey,
  codeLength,
  isAllowedCodePoint,
  isValidCode,
  normalizeCustomCode,
  RESERVED_CODES,
} from '../../core/rules/code.js';
import { expectInvalid } from './expect-error.js';

const NFD = (s: string) => s.normalize('NFD');
const hex = (cps: number[]) => cps.map((cp) => [cp.toString(16).toUpperCase().padStart(4, '0'), cp] as const);
/** Both messages about characters name the field and the allowed Hangul. */
const BAD_CHAR = /custom_code.*Hangul/;
/** Jamo left over after NFC (archaic or incomplete) must be named as such. */
const BAD_JAMO = /custom_code.*jamo/;
const BAD_LENGTH = /custom_code must be 1 to 64 characters/;

describe('normalizeCustomCode: allowed characters', () => {
  it.each([
    ['first Hangul syllable U+AC00', '\uAC00', '가'],
    ['last Hangul syllable U+D7A3', '\uD7A3', '힣'],
    ['a Hangul word', '한글', '한글'],
    ['conjoining jamo L V T (NFD) compose into 한', '\u1112\u1161\u11AB', '한'],
    ['conjoining jamo L V (NFD) compose into 가', '\u1100\u1161', '가'],
    ['a whole NFD word composes', NFD('한국어주소'), '한국어주소'],
    ['first compatibility jamo U+3131', '\u3131', 'ㄱ'],
    ['last compatibility jamo U+318E', '\u318E', '\u318E'],
    ['compatibility jamo mixed with syllables', 'ㅋㅋ웃음', 'ㅋㅋ웃음'],
    ['ASCII letters keep their case', 'Promo', 'Promo'],
    ['ASCII letter range ends', 'AZaz', 'AZaz'],
    ['digits', '0123456789', '0123456789'],
    ['underscore alone', '_', '_'],
    ['hyphen alone', '-', '-'],
    ['a mix of every class', '봄-Sale_2026ㅎ', '봄-Sale_2026ㅎ'],
  ])('accepts %s', (_name, raw, expected) => {
    expect(normalizeCustomCode(raw)).toBe(expected);
  });
});

describe('normalizeCustomCode: refused characters (400)', () => {
  it.each([
    ['choseong filler U+115F', '\u115F', BAD_CHAR],
    ['jungseong filler U+1160', '\u1160', BAD_CHAR],
    ['compatibility filler U+3164', 'a\u3164b', BAD_CHAR],
    ['halfwidth filler U+FFA0', '\uFFA0', BAD_CHAR],
    ['fillers between composable jamo', '\u115F\u1161', BAD_CHAR],
    ['halfwidth jamo U+FFA1', '\uFFA1', BAD_CHAR],
    ['halfwidth jamo U+FFDC', '\uFFDC', BAD_CHAR],
    ['fullwidth A U+FF21', '\uFF21', BAD_CHAR],
    ['fullwidth digit U+FF11', 'code\uFF11', BAD_CHAR],
    ['Hangul Jamo Extended-A U+A960', '\uA960\u1161', BAD_CHAR],
    ['Hangul Jamo Extended-B U+D7B0', '\u1100\uD7B0', BAD_CHAR],
    ['zero-width space U+200B', 'ab\u200Bcd', BAD_CHAR],
    ['zero-width joiner U+200D', 'ab\u200Dcd', BAD_CHAR],
    ['zero-width non-joiner U+200C', 'ab\u200Ccd', BAD_CHAR],
    ['byte order mark U+FEFF', '\uFEFFabc', BAD_CHAR],
    ['right-to-left override U+202E', 'abc\u202E', BAD_CHAR],
    ['left-to-right isolate U+2066', '\u2066abc', BAD_CHAR],
    ['right-to-left mark U+200F', 'ab\u200F', BAD_CHAR],
    ['space', 'my code', BAD_CHAR],
    ['tab', 'my\tcode', BAD_CHAR],
    ['newline', 'my\ncode', BAD_CHAR],
    ['NUL', 'my\u0000code', BAD_CHAR],
    ['dot', 'a.b', BAD_CHAR],
    ['api.php (has a dot)', 'api.php', BAD_CHAR],
    ['slash', 'a/b', BAD_CHAR],
    ['percent', '100%', BAD_CHAR],
    ['question mark', 'why?', BAD_CHAR],
    ['hash', 'a#b', BAD_CHAR],
    ['emoji', 'hi😀', BAD_CHAR],
    ['flag emoji', '🇰🇷', BAD_CHAR],
    ['Kelvin sign U+212A (NFC makes it K)', '\u212A', BAD_CHAR],
    ['Kelvin sign inside a word', 'o\u212Ay', BAD_CHAR],
    ['Angstrom sign U+212B (NFC makes it Å)', '\u212B', BAD_CHAR],
    ['Latin letter with accent', 'café', BAD_CHAR],
    ['Cyrillic look-alike a U+0430', '\u0430pple', BAD_CHAR],
    ['Turkish dotted I U+0130', '\u0130stanbul', BAD_CHAR],
  ])('refuses %s', (_name, raw, message) => {
    expectInvalid(() => normalizeCustomCode(raw), message);
  });

  it.each([
    ['a lone leading jamo U+1100', '\u1100'],
    ['a lone vowel jamo U+1161', '\u1161'],
    ['a lone trailing jamo U+11A8', '\u11A8'],
    ['an archaic leading jamo U+1113 before a vowel', '\u1113\u1161'],
    ['an archaic vowel U+1176 after a leading jamo', '\u1100\u1176'],
    ['an archaic trailing jamo U+11C3 after 가', '\u1100\u1161\u11C3'],
    ['the last conjoining jamo U+11FF', '\u11FF'],
    ['a syllable followed by a stray vowel jamo', '한\u1161'],
  ])('refuses jamo that do not compose: %s', (_name, raw) => {
    expectInvalid(() => normalizeCustomCode(raw), BAD_JAMO);
  });

  it('NFC really would turn the look-alikes into allowed letters (why the pre-check matters)', () => {
    expect('\u212A'.normalize('NFC')).toBe('K');
    expect('\u212B'.normalize('NFC')).toBe('\u00C5');
  });
});

describe('normalizeCustomCode: length in code points after NFC', () => {
  it.each([
    ['1 ASCII letter', 'a'],
    ['64 ASCII letters', 'a'.repeat(64)],
    ['64 Hangul syllables', '한'.repeat(64)],
    ['64 syllables given as 192 NFD code points', NFD('한'.repeat(64))],
  ])('accepts %s', (_name, raw) => {
    expect(normalizeCustomCode(raw)).toBe(raw.normalize('NFC'));
  });

  it('an NFD input longer than 64 code points is accepted when its NFC form has 64', () => {
    const raw = NFD('가나다라'.repeat(16));
    expect([...raw].length).toBeGreaterThan(64);
    expect(normalizeCustomCode(raw)).toBe('가나다라'.repeat(16));
  });

  it.each([
    ['the empty string', ''],
    ['65 ASCII letters', 'a'.repeat(65)],
    ['65 Hangul syllables', '한'.repeat(65)],
    ['65 syllables given as NFD', NFD('한'.repeat(65))],
  ])('refuses %s', (_name, raw) => {
    expectInvalid(() => normalizeCustomCode(raw), BAD_LENGTH);
  });

  it('codeLength counts as the rule does, so a screen can check before sending', () => {
    expect(codeLength(NFD('한'.repeat(30)))).toBe(30);
    expect(NFD('한'.repeat(30)).length).toBe(90); // what the browser's maxlength would count
    expect(codeLength('a'.repeat(65))).toBe(65);
    expect(codeLength('')).toBe(0);
  });
});

describe('normalizeCustomCode: reserved words', () => {
  it('reserves every word docs/api.md names', () => {
    for (const word of ['api', 'health', 'admin', 'assets', 'static', 'docs', 'login', 'www']) {
      expect(RESERVED_CODES.has(word)).toBe(true);
    }
  });

  it.each([
    'api',
    'API',
    'Api',
    'health',
    'HEALTH',
    'admin',
    'Admin',
    'assets',
    'ASSETS',
    'static',
    'Static',
    'docs',
    'DOCS',
    'login',
    'LoGiN',
    'www',
    'WWW',
  ])('refuses %s in any ASCII case', (raw) => {
    expectInvalid(() => normalizeCustomCode(raw), /custom_code/, /reserved/);
  });

  it.each(['api2', 'apis', 'my-docs', 'www_home', 'healthy', '관리자'])(
    'accepts %s, which only contains a reserved word',
    (raw) => {
      expect(normalizeCustomCode(raw)).toBe(raw);
    },
  );
});

describe('codeKey: identity of a code', () => {
  it.each([
    ['mixed case folds to lower case', 'Promo', 'promo'],
    ['upper case folds to lower case', 'PROMO', 'promo'],
    ['lower case stays', 'promo', 'promo'],
    ['digits, _ and - stay', 'A_B-9', 'a_b-9'],
    ['Hangul stays', '한글', '한글'],
    ['NFD Hangul becomes NFC', NFD('한글'), '한글'],
    ['non-ASCII upper case is not folded', 'ÄBC', 'Äbc'],
    ['Turkish dotted I is not folded', '\u0130', '\u0130'],
    ['Greek capital sigma is not folded', '\u03A3', '\u03A3'],
  ])('%s', (_name, code, key) => {
    expect(codeKey(code)).toBe(key);
  });

  it('Promo, PROMO and promo are one code, while normalizeCustomCode keeps the spelling', () => {
    expect(codeKey('Promo')).toBe(codeKey('PROMO'));
    expect(codeKey('PROMO')).toBe('promo');
    expect(normalizeCustomCode('Promo')).toBe('Promo');
  });

  it('NFC and NFD spellings of a Hangul code give the same code and the same key', () => {
    const nfc = '한국어';
    const nfd = NFD(nfc);
    expect(nfd).not.toBe(nfc);
    expect(normalizeCustomCode(nfd)).toBe(normalizeCustomCode(nfc));
    expect(codeKey(normalizeCustomCode(nfd))).toBe(codeKey(nfc));
  });

  it('ä and Ä are different codes (only ASCII is case-insensitive)', () => {
    expect(codeKey('\u00E4')).not.toBe(codeKey('\u00C4'));
  });
});

describe('isAllowedCodePoint', () => {
  it.each(
    hex([
      0xac00, 0xd7a3, 0x1100, 0x1112, 0x1161, 0x11a8, 0x11ff, 0x3131, 0x318e, 0x41, 0x5a, 0x61, 0x7a, 0x30, 0x39, 0x5f,
      0x2d,
    ]),
  )('allows U+%s', (_hex, cp) => {
    expect(isAllowedCodePoint(cp)).toBe(true);
  });

  it.each(
    hex([
      0xabff, 0xd7a4, 0x10ff, 0x1200, 0x115f, 0x1160, 0x3130, 0x318f, 0x3164, 0xffa0, 0xffa1, 0xff21, 0x212a, 0x212b,
      0x200b, 0x200d, 0xfeff, 0x202e, 0x2066, 0x20, 0x09, 0x00, 0x7f, 0x2e, 0x2f, 0x25, 0x3f, 0x23, 0x40, 0x5b, 0x60,
      0x7b, 0x3a, 0xa960, 0xd7b0, 0x1f600,
    ]),
  )('refuses U+%s', (_hex, cp) => {
    expect(isAllowedCodePoint(cp)).toBe(false);
  });
});

describe('isValidCode: what a client keeps from a server or a file', () => {
  it('accepts the codes normalizeCustomCode accepts, and nothing else', () => {
    for (const code of ['민준의링크', 'Spring-Sale', 'a_1']) expect(isValidCode(code), code).toBe(true);
    for (const code of ['', 'a/b', 'api', 'a b', 'x'.repeat(65), '..']) expect(isValidCode(code), code).toBe(false);
  });
});
