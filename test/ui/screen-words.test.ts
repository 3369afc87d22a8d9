import { describe, expect, it } from 'vitest';
import { ApiError, UnreachableError } from '../../client/api-errors.js';
import { backgroundErrorSentence } from '../../ui/background-error-sentence.js';
import { catalogMessages } from '../../ui/catalog-messages.js';
import { errorSentence } from '../../ui/error-sentence.js';
import { createI18n } from '../../ui/i18n.js';
import { importRowReason } from '../../ui/import-row-reason.js';
import { plural } from '../../ui/plural.js';
import { withScheme } from '../../ui/with-scheme.js';
import { importProblems, importSummary } from '../../webapp/import-summary.js';

// SPEC "Screens": words for people. The API's messages (English, naming fields and code points)
// are recognised and said again in the page's language; counts agree with their number.
const en = createI18n(catalogMessages(['en'])).t;
const ko = createI18n(catalogMessages(['ko'])).t;
const API_WORDS = /original_url|custom_code|U\+[0-9A-F]{4}|percent-encode|X-API-Key|header/i;

// The messages core/rules/url.ts and core/rules/code.ts answer with, as a server sends them.
const SERVER_MESSAGES: Array<[string, 'url' | 'code']> = [
  ['original_url must not contain whitespace or control characters; percent-encode them.', 'url'],
  ['original_url must be an absolute http or https URL, such as https://example.com/page.', 'url'],
  ['original_url must use http or https, not ftp.', 'url'],
  ['original_url must be at most 2048 characters long; it has 3000.', 'url'],
  ['original_url must not contain user credentials (user@host).', 'url'],
  ['original_url must not point at this service (sho.rt); that link would loop.', 'url'],
  ['original_url must not point at a private, loopback or link-local address (10.0.0.1); this server…', 'url'],
  ["custom_code may only contain Hangul, ASCII letters, digits, '_' and '-'; found U+0020 (a space).", 'code'],
  ['custom_code must be 1 to 64 characters long; it has 70.', 'code'],
  ["custom_code 'api' is reserved by the service; choose another code.", 'code'],
];

describe('one reading of errors for both screens', () => {
  it("the web app and the extension recognise the same rule in each of the API's messages", () => {
    for (const [message, field] of SERVER_MESSAGES) {
      const web = errorSentence(en, new ApiError(400, message), 'shorten').text;
      const extension = backgroundErrorSentence(en, new ApiError(400, message));
      // Each names the rule's field in its own words, and neither shows the API's.
      expect(web, message).toMatch(field === 'url' ? /web address|page|link/i : /code/i);
      expect(extension, message).toMatch(field === 'url' ? /web address|page|link|user name/i : /code/i);
      expect(`${web} ${extension}`).not.toMatch(API_WORDS);
    }
  });
});

describe('errorSentence', () => {
  it.each(SERVER_MESSAGES)(
    '%s → a sentence next to its field, in both languages, with no API words',
    (message, field) => {
      for (const t of [en, ko]) {
        const sentence = errorSentence(t, new ApiError(400, message), 'shorten');
        expect(sentence.field).toBe(field);
        expect(sentence.text).not.toMatch(API_WORDS);
        expect(sentence.text).not.toContain(message);
      }
      expect(errorSentence(ko, new ApiError(400, message), 'shorten').text).toMatch(/[가-힣]/);
    },
  );

  it('says the specific rule: spaces, the scheme, a taken code', () => {
    expect(errorSentence(en, new ApiError(400, SERVER_MESSAGES[0]?.[0] ?? ''), 'shorten').text).toBe(
      'A web address cannot contain spaces; remove them and try again.',
    );
    expect(errorSentence(en, new ApiError(400, SERVER_MESSAGES[1]?.[0] ?? ''), 'shorten').text).toMatch(
      /^Enter a web address that starts with https:\/\//,
    );
    expect(errorSentence(en, new ApiError(409, 'custom_code is taken.'), 'shorten')).toEqual({
      field: 'code',
      text: 'That code is taken; choose another.',
    });
  });

  it('maps each status to its own sentence, by what the person was doing', () => {
    const said = (status: number, context: Parameters<typeof errorSentence>[2]) =>
      errorSentence(en, new ApiError(status, 'X-API-Key header required'), context).text;
    expect(said(401, 'sign-in')).toMatch(/^This API key is not accepted/);
    expect(said(401, 'shorten')).toMatch(/sign in with your API key/);
    expect(said(404, 'link')).toMatch(/no longer there/);
    expect(said(410, 'link')).toMatch(/expired/);
    expect(said(413, 'import')).toMatch(/too large/);
    expect(said(429, 'shorten')).toMatch(/wait a moment/);
    expect(said(503, 'shorten')).toMatch(/try again in a moment/);
    expect(said(400, 'import')).toMatch(/could not read this file/);
    const statuses = [401, 403, 404, 409, 410, 413, 429, 500, 503, 400];
    for (const status of statuses) {
      expect(said(status, 'link')).not.toMatch(API_WORDS);
      expect(errorSentence(ko, new ApiError(status, 'x'), 'link').text).toMatch(/[가-힣]/);
    }
  });

  it('never shows the browser’s English reason for an unreachable server on a Korean page', () => {
    const text = errorSentence(
      ko,
      new UnreachableError('https://sho.rt/', new TypeError('Failed to fetch')),
      'link',
    ).text;
    expect(text).toBe('서버가 응답하지 않았습니다. 연결을 확인하고 다시 시도하세요.');
  });
});

describe('withScheme', () => {
  it.each([
    ['example.com/page', 'https://example.com/page'],
    ['  www.example.com  ', 'https://www.example.com'],
    ['example.com:8080/x?y=1', 'https://example.com:8080/x?y=1'],
    ['한글.kr/경로', 'https://한글.kr/경로'],
    ['//cdn.example.com/a', 'https://cdn.example.com/a'],
    ['https://example.com/', 'https://example.com/'],
    ['http://example.com/', 'http://example.com/'],
    ['mailto:a@example.com', 'mailto:a@example.com'],
    ['ftp://example.com/x', 'ftp://example.com/x'],
    ['hello', 'hello'],
    ['user@example.com', 'user@example.com'],
  ])('%s → %s', (typed, sent) => {
    expect(withScheme(typed)).toBe(sent);
  });
});

describe('plural', () => {
  const keys = { one: 'webLinkCountOne', other: 'webLinkCountOther' } as const;
  it('agrees with the number in English and writes it as each language does', () => {
    expect(plural(en, 'en', 0, keys)).toBe('0 links');
    expect(plural(en, 'en', 1, keys)).toBe('1 link');
    expect(plural(en, 'en', 2, keys)).toBe('2 links');
    expect(plural(en, 'en', 1500, keys)).toBe('1,500 links');
    expect(plural(ko, 'ko', 1, keys)).toBe('링크 1개');
  });
});

describe('the import summary', () => {
  const words = { t: en, language: 'en' };
  it('is short: created of how many; all created is not partial', () => {
    const all = { created: 1, unchanged: 0, conflict: 0, invalid: 0, skipped: 0 };
    expect(importSummary(all, words)).toEqual({ text: 'Created 1 of 1 link.', partial: false });
  });

  it('a partial import counts the rest and lists each problem on its own line, in words', () => {
    const answer = {
      created: 2,
      unchanged: 1,
      conflict: 1,
      invalid: 1,
      skipped: 0,
      results: [
        { code: 'a', status: 'created' },
        { code: 'b', status: 'unchanged', message: 'b already exists with the same target' },
        { code: 'c', status: 'conflict', message: 'custom_code c is taken.' },
        { row: 7, status: 'invalid', message: 'original_url must use http or https, not ftp.' },
      ],
    };
    expect(importSummary(answer, words)).toEqual({
      text: 'Created 2 of 5 links. Already yours: 1 · code taken: 1 · not valid: 1 · skipped: 0.',
      partial: true,
    });
    expect(importProblems(answer, words)).toEqual([
      'b: already here, unchanged',
      "c: someone else's link has this code; change the code in the file",
      'Row 7: Enter a web address that starts with https://, such as https://example.com/page.',
    ]);
  });

  it("says why each row was not imported, never the server's refusal without a reason", () => {
    const row = (status: string, message: string) => importRowReason(en, { status, message });
    expect(row('conflict', "Code 'mine' is already yours for another URL (https://example.com/).")).toBe(
      'your link with this code goes to another address; change the code in the file',
    );
    expect(row('conflict', "Row 2 of this file already uses code 'x' for another URL.")).toBe(
      'an earlier row of the file uses this code for another address',
    );
    expect(row('invalid', "code may only contain letters, digits, '_' and '-'.")).toBe(
      'A code may use letters, digits, Hangul, _ and - only; choose another.',
    );
    expect(row('invalid', 'The row has no short code; each link keeps its own code.')).toBe(
      'the row has no short code',
    );
    expect(row('invalid', 'created_at is not a date.')).toBe('this row is not a link Linklet can read');
    expect(row('skipped', 'It expired on 2020-01-01T00:00:00.000Z; expired links are not imported.')).toBe(
      'already expired',
    );
    expect(row('skipped', 'The same link as row 3 of this file.')).toBe('the same link as an earlier row');
    expect(
      row(
        'skipped',
        "Not imported: imports may create 1000 links a minute for each owner, and this minute's were used. Send the file again in 20 s; the rows imported already will come back as unchanged.",
      ),
    ).toBe("over this minute's import limit; import the file again in a minute");
    for (const [status, message] of [
      ['conflict', "Code 'c' is in use by another active link; choose another code for this row and import it again."],
      ['invalid', 'something new'],
    ] as const) {
      expect(importRowReason(ko, { status, message })).toMatch(/[가-힣]/);
      expect(importRowReason(en, { status, message })).not.toMatch(/did not accept/);
    }
  });

  it('says how many more were not listed, agreeing with the number', () => {
    const answer = { created: 0, unchanged: 0, conflict: 0, invalid: 1, skipped: 0, results: [] };
    expect(importProblems(answer, words)).toEqual(['…and 1 more row not created, not listed here.']);
  });
});
