import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TITLE_LENGTH, parseTitle } from '../../core/management/links/link-labels.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, parsePasswordField } from '../../core/passwords/password-hasher.js';
import { MAX_CODE_LENGTH, normalizeCustomCode } from '../../core/rules/code.js';
import { catalogMessages } from '../../ui/catalog-messages.js';
import { createI18n } from '../../ui/i18n.js';
import { lengthProblem } from '../../ui/length-problem.js';

// The screens check lengths before sending, as the core counts them (code points; the code after
// NFC), because the browser's maxlength counts UTF-16 units and cut valid input. These tests pin
// the counting to the core's, in both languages, and say it in people's words.
const en = createI18n(catalogMessages(['en'])).t;
const ko = createI18n(catalogMessages(['ko'])).t;
const API_WORDS = /custom_code|title must|password must|U\+[0-9A-F]{4}/;

const EMOJI = '😀'; // one character, two UTF-16 units
// Each with a final consonant: three jamo, three UTF-16 units, once decomposed.
const SYLLABLES = '한글강산합격땅콩';
/** `count` Hangul syllables, decomposed into conjoining jamo as some keyboards and pastes send them. */
const nfdHangul = (count: number) =>
  Array.from({ length: count }, (_, i) => SYLLABLES[i % SYLLABLES.length])
    .join('')
    .normalize('NFD');

/** Whether the core refuses a value for its length (not for another rule). */
function coreRefusesLength(field: 'code' | 'title' | 'password', value: string): boolean {
  try {
    if (field === 'code') normalizeCustomCode(value);
    else if (field === 'title') parseTitle(value);
    else parsePasswordField({ password: value });
    return false;
  } catch (error) {
    return /characters/.test((error as Error).message) && !/may only contain/.test((error as Error).message);
  }
}

describe('lengthProblem: code', () => {
  it('counts a code pasted as decomposed Hangul after NFC, as the server does', () => {
    const code = nfdHangul(30);
    expect(code.length).toBeGreaterThan(MAX_CODE_LENGTH); // what maxlength="64" used to cut
    expect(lengthProblem(en, 'code', code)).toBeUndefined();
    expect(lengthProblem(en, 'code', nfdHangul(MAX_CODE_LENGTH))).toBeUndefined();
  });

  it('refuses 65 characters in both languages, saying the limit and the count', () => {
    const code = 'a'.repeat(MAX_CODE_LENGTH + 1);
    expect(lengthProblem(en, 'code', code)).toBe('A code can be at most 64 characters long; this one has 65.');
    expect(lengthProblem(ko, 'code', nfdHangul(MAX_CODE_LENGTH + 1))).toBe(
      '코드는 64자까지 쓸 수 있습니다. 지금 65자입니다.',
    );
  });

  it('an empty code is none (one is generated), not a problem', () => {
    expect(lengthProblem(en, 'code', '')).toBeUndefined();
  });

  it('agrees with the core on every Hangul or ASCII code, composed or not', () => {
    const letter = fc.constantFrom(...'가힣한글ㄱabZ_-09');
    fc.assert(
      fc.property(fc.array(letter, { minLength: 1, maxLength: 90 }), fc.boolean(), (letters, decompose) => {
        const joined = letters.join('');
        const code = decompose ? joined.normalize('NFD') : joined;
        expect(lengthProblem(en, 'code', code) !== undefined).toBe(coreRefusesLength('code', code));
      }),
    );
  });
});

describe('lengthProblem: title', () => {
  it('counts an emoji as one character: 150 emoji fit, 201 do not', () => {
    expect(lengthProblem(en, 'title', EMOJI.repeat(150))).toBeUndefined();
    expect(lengthProblem(en, 'title', EMOJI.repeat(MAX_TITLE_LENGTH))).toBeUndefined();
    expect(lengthProblem(en, 'title', EMOJI.repeat(201))).toBe(
      'A title can be at most 200 characters long; this one has 201.',
    );
    expect(lengthProblem(ko, 'title', EMOJI.repeat(201))).toBe('제목은 200자까지 쓸 수 있습니다. 지금 201자입니다.');
  });

  it('does not count the spaces the server trims, and an empty title is none', () => {
    expect(lengthProblem(en, 'title', `  ${'x'.repeat(MAX_TITLE_LENGTH)}  `)).toBeUndefined();
    expect(lengthProblem(en, 'title', '')).toBeUndefined();
  });

  it('agrees with the core on titles of emoji, Hangul and spaces', () => {
    const piece = fc.constantFrom(EMOJI, '한', 'a', ' ', '\u1100\u1161');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 260 }), (pieces) => {
        const title = pieces.join('');
        expect(lengthProblem(en, 'title', title) !== undefined).toBe(coreRefusesLength('title', title));
      }),
    );
  });
});

describe('lengthProblem: password', () => {
  it('counts an emoji as one character: 100 emoji fit, 129 do not', () => {
    expect(lengthProblem(en, 'password', EMOJI.repeat(100))).toBeUndefined();
    expect(lengthProblem(en, 'password', EMOJI.repeat(MAX_PASSWORD_LENGTH))).toBeUndefined();
    expect(lengthProblem(en, 'password', EMOJI.repeat(MAX_PASSWORD_LENGTH + 1))).toBe(
      'Enter a password of 4 to 128 characters.',
    );
  });

  it('refuses one too short, two emoji among them (four UTF-16 units, two characters)', () => {
    expect(lengthProblem(en, 'password', EMOJI.repeat(2))).toBe('Enter a password of 4 to 128 characters.');
    expect(lengthProblem(ko, 'password', 'abc')).toBe('비밀번호는 4~128자로 입력하세요.');
    expect(lengthProblem(en, 'password', '')).toBeDefined();
    expect(lengthProblem(en, 'password', EMOJI.repeat(MIN_PASSWORD_LENGTH))).toBeUndefined();
  });

  it('agrees with the core on passwords of emoji and letters', () => {
    const piece = fc.constantFrom(EMOJI, '비', 'a', ' ');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 140 }), (pieces) => {
        const password = pieces.join('');
        expect(lengthProblem(en, 'password', password) !== undefined).toBe(coreRefusesLength('password', password));
      }),
    );
  });
});

describe('lengthProblem: words', () => {
  it('never shows an API field name, in either language', () => {
    for (const t of [en, ko]) {
      for (const text of [
        lengthProblem(t, 'code', 'a'.repeat(70)),
        lengthProblem(t, 'title', 'a'.repeat(300)),
        lengthProblem(t, 'password', 'a'),
      ]) {
        expect(text).toBeDefined();
        expect(text).not.toMatch(API_WORDS);
      }
    }
  });
});
