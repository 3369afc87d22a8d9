import { describe, expect, it } from 'vitest';
import { ApiError } from '../../client/api-errors.js';
import { backgroundErrorField, backgroundErrorSentence, errorKeyOf } from '../../ui/background-error-sentence.js';
import { catalogMessages } from '../../ui/catalog-messages.js';
import { createI18n } from '../../ui/i18n.js';
import { plural } from '../../ui/plural.js';
import { qrFileName } from '../../ui/qr-download.js';
import { withScheme } from '../../ui/with-scheme.js';

// The screens' words: errors by kind in the page's language, the scheme a person left
// out, counts that agree, and QR files named after the code.
const en = createI18n(catalogMessages(['en-US']));
const ko = createI18n(catalogMessages(['ko-KR']));

describe('errorSentence', () => {
  it('says each API rule in words, never its field names or code points', () => {
    const cases: [number, string, string][] = [
      [400, 'original_url must not contain whitespace or control characters; percent-encode them.', 'errorUrlSpaces'],
      [400, 'original_url must be an absolute http or https URL, such as https://example.com/page.', 'errorUrlInvalid'],
      [400, 'original_url must use http or https, not ftp.', 'errorUrlInvalid'],
      [
        400,
        "custom_code may only contain Hangul, ASCII letters, digits, '_' and '-'; found U+0020 (space).",
        'errorCodeCharacters',
      ],
      [400, 'custom_code must be 1 to 64 characters long; it has 70.', 'errorCodeLength'],
      [400, "custom_code 'api' is reserved by the service; choose another code.", 'errorCodeReserved'],
      [409, "custom_code 'x' is already in use; choose another code.", 'errorCodeTaken'],
      [401, 'A valid API key is required; send it in the X-API-Key header.', 'errorKeyRefused'],
      [429, 'Too many requests.', 'errorRateLimited'],
      [503, 'The link store is not answering.', 'errorServerTrouble'],
    ];
    for (const [status, message, key] of cases) expect(errorKeyOf(status, message), message).toBe(key);
    for (const [status, message, key] of cases) {
      const sentence = backgroundErrorSentence(ko.t, new ApiError(status, message));
      // The Korean sentence alone: no API word, no English glued in.
      expect(sentence).toBe(ko.t(key as Parameters<typeof ko.t>[0]));
      expect(sentence).not.toMatch(/original_url|custom_code|U\+|percent|X-API-Key/);
    }
  });

  it('keeps the extension’s own sentence of when a taken code frees up, in the page’s language', () => {
    const error = new ApiError(
      409,
      "custom_code 'x' is already in use; choose another code. It can be used after Dec 1.",
    );
    expect(backgroundErrorSentence(en.t, error)).toBe(
      'That code is taken; choose another. It can be used after Dec 1.',
    );
  });

  it('tells which field an error is about, so the popup marks that field', () => {
    const field = (status: number | undefined, message: string) =>
      backgroundErrorField(status === undefined ? new Error(message) : new ApiError(status, message));
    expect(field(400, 'original_url must use http or https, not ftp.')).toBe('url');
    expect(field(400, "custom_code 'api' is reserved by the service; choose another code.")).toBe('code');
    // A taken code by its status too, whatever words a server puts in its 409.
    expect(field(409, 'Conflict.')).toBe('code');
    expect(field(503, 'The link store is not answering.')).toBeUndefined();
    expect(field(undefined, 'Could not reach https://sho.rt: fetch failed')).toBeUndefined();
  });

  it('shows the screens’ own sentences as they are, and an unreachable server in words', () => {
    expect(backgroundErrorSentence(en.t, new Error('Enter the URL to shorten.'))).toBe('Enter the URL to shorten.');
    expect(backgroundErrorSentence(en.t, new Error('Could not reach https://sho.rt: fetch failed'))).toMatch(
      /^Could not reach the server\./,
    );
  });
});

describe('withScheme', () => {
  it('adds https:// where a person left it out, and nothing else', () => {
    expect(withScheme(' example.com/page ')).toBe('https://example.com/page');
    expect(withScheme('//example.com')).toBe('https://example.com');
    expect(withScheme('http://example.com')).toBe('http://example.com');
    expect(withScheme('ftp://example.com')).toBe('ftp://example.com');
    expect(withScheme('mailto:a@example.com')).toBe('mailto:a@example.com');
    expect(withScheme('')).toBe('');
  });
});

describe('plural', () => {
  it('agrees with its number through Intl.PluralRules', () => {
    const keys = { one: 'clicksCountOne', other: 'clicksCount' } as const;
    expect(plural(en.t, 'en', 1, keys)).toBe('1 click');
    expect(plural(en.t, 'en', 2, keys)).toBe('2 clicks');
    expect(plural(en.t, 'en', 1200, keys)).toBe('1,200 clicks');
    expect(plural(ko.t, 'ko', 1, keys)).toBe('클릭 1회');
  });
});

describe('qrFileName', () => {
  it('names the file after the code, Hangul kept readable', () => {
    expect(qrFileName('abc123', 'svg')).toBe('abc123.svg');
    expect(qrFileName('한글코드', 'png')).toBe('한글코드.png');
    expect(qrFileName('a/b:c', 'png')).toBe('a_b_c.png');
    expect(qrFileName('', 'svg')).toBe('qr-code.svg');
  });
});
