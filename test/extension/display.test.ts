import { describe, expect, it } from 'vitest';
import { isOpenableShortUrl, openPageBase } from '../../extension/backend/local-backend.js';
import { displayUrl, mixesScripts } from '../../ui/display-url.js';
import { formatDateTime, isoDateTime } from '../../ui/format-date.js';

describe('displayUrl: a host that mixes scripts is shown in punycode, as browsers do', () => {
  it.each([
    ['a Cyrillic а in аpple.com', 'https://аpple.com/login', 'https://xn--pple-43d.com/login'],
    ['a Greek ο in gοogle.com', 'https://gοogle.com/', 'https://xn--gogle-rce.com/'],
    ['a Cyrillic name under .com', 'https://аррӏе.com/', 'https://xn--80ak6aa92e.com/'],
    ['a port and query kept', 'http://pаypal.com:8443/a?b=c#d', 'http://xn--pypal-4ve.com:8443/a?b=c#d'],
    ['a percent-encoded Cyrillic а', 'https://%D0%B0pple.com/', 'https://xn--pple-43d.com/'],
  ])('%s', (_, url, shown) => {
    expect(displayUrl(url)).toBe(shown);
  });

  it.each([
    ['plain ASCII', 'https://example.com/a?b#c'],
    ['Hangul with a Latin TLD (Korean)', 'https://한글.com/경로'],
    ['Han, Hiragana and Latin (Japanese)', 'https://日本語のサイト.jp/'],
    ['a Cyrillic name under a Cyrillic TLD', 'https://пример.рф/'],
    ['Greek alone', 'https://παράδειγμα.ελ/'],
    ['punycode as typed', 'https://xn--pple-43d.com/'],
    ['an IPv6 host', 'http://[::1]:8080/'],
    ['digits and hyphens with Hangul', 'https://한글-2024.kr/'],
  ])('leaves %s as submitted', (_, url) => {
    expect(displayUrl(url)).toBe(url);
  });

  it('tells mixes no single language writes from those it does', () => {
    expect(mixesScripts('аpple.com')).toBe(true);
    expect(mixesScripts('apple.com')).toBe(false);
    expect(mixesScripts('東京タワー.com')).toBe(false);
    expect(mixesScripts('한글漢字.kr')).toBe(false);
    expect(mixesScripts('한글カタカナ.kr')).toBe(true);
  });
});

describe('formatDateTime and isoDateTime never throw', () => {
  it.each([Number.NaN, 1e300, -1e300, Number.POSITIVE_INFINITY, 8.64e15 + 1])('%s gives a placeholder', (value) => {
    expect(formatDateTime(value, 'en')).toBe('?');
    expect(isoDateTime(value)).toBe('');
  });

  it('formats a real date', () => {
    expect(formatDateTime(Date.UTC(2026, 10, 29, 15, 4), 'en')).toMatch(/2026/);
    expect(isoDateTime(Date.UTC(2026, 10, 29, 15, 4))).toBe('2026-11-29T15:04:00.000Z');
  });

  it("formats in the language it is given (the page's), Korean too", () => {
    // Korean puts the year first ("2026. 11. 29. …"); English the month ("Nov 29, 2026, …").
    expect(formatDateTime(Date.UTC(2026, 10, 29, 12), 'ko')).toMatch(/^2026\. 11\. 29\./);
    expect(formatDateTime(Date.UTC(2026, 10, 29, 12), 'en')).toMatch(/^Nov 29, 2026/);
  });
});

describe('isOpenableShortUrl: what may be copied, QR-encoded or opened', () => {
  it.each(['https://sho.rt/abc/', 'http://127.0.0.1:8080/한글/', `${openPageBase()}/abc/`])('allows %s', (url) => {
    expect(isOpenableShortUrl(url)).toBe(true);
  });

  it.each([
    'data:text/html,<script>alert(1)</script>',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'chrome://settings/',
    'https://user:pw@sho.rt/abc/',
    'chrome-extension://another-extension/open.html#/abc/',
    `${openPageBase().replace('open.html#', 'options.html')}/abc/`,
    'not a url',
    '',
  ])('refuses %s', (url) => {
    expect(isOpenableShortUrl(url)).toBe(false);
  });
});
