import { describe, expect, it } from 'vitest';
import type { RawVisit } from '../../core/management/visits/visits.js';
import type { Link } from '../../core/store/link-store.js';
import { clickEventData } from '../../core/webhooks/webhook-payloads.js';
import { createRawVisitColumns } from '../../server/clicks/raw-visit-columns.js';
import { createVisitParser } from '../../server/clicks/visit-parser.js';
import { clickJsonTexts } from '../../server/webhooks/click-json.js';

const BASE = 'https://sho.rt';
const AT = Date.UTC(2026, 10, 29, 23, 59, 59, 500); // a beat across midnight, too
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const link = (code: string): Link => ({
  code,
  codeKey: code.toLowerCase(),
  originalUrl: 'https://example.com/',
  createdAt: AT,
  expiresAt: AT + 86_400_000,
});

const visits: RawVisit[] = [
  { referer: 'https://news.example.org/a?b=c', userAgent: CHROME, country: 'KR', private: false },
  { referer: undefined, userAgent: IPHONE, country: 'xx', private: false },
  {
    referer: 'not a url',
    userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)',
    country: undefined,
    private: false,
  },
  { referer: 'https://secret.example/', userAgent: CHROME, country: 'US', private: true },
  { referer: 'https://news.example.org/"quoted"', userAgent: undefined, country: ['de', 'fr'], private: false },
  { referer: 'https://news.example.org/a?b=c', userAgent: CHROME, country: 'KR', private: false },
];
const codes = ['Hello', '한글', 'gone', 'Hello', 'Hello', '한글'];

describe('clickJsonTexts', () => {
  it('writes each click as clickEventData does with the parsed visit, and nothing for a link that is gone', () => {
    const columns = createRawVisitColumns();
    for (const [i, visit] of visits.entries()) columns.push((codes[i] as string).toLowerCase(), AT + i * 300, visit);
    const raw = columns.take();
    const parse = createVisitParser();
    const byKey = new Map(codes.filter((code) => code !== 'gone').map((code) => [code.toLowerCase(), link(code)]));
    const linkOf = (code: number) => byKey.get(raw.strings[code] as string);
    const texts = clickJsonTexts(raw, BASE, parse.facts, linkOf);
    const expected = visits.map((visit, i) => {
      const code = codes[i] as string;
      if (code === 'gone') return undefined;
      const at = AT + i * 300;
      return clickEventData(link(code), BASE, at, parse(code, at, visit), !visit.private);
    });
    expect(texts.map((text) => (text === undefined ? undefined : JSON.parse(text)))).toEqual(expected);
    // Key order as clickEventData writes it, so a receiver sees one shape.
    expect(Object.keys(JSON.parse(texts[0] as string))).toEqual(Object.keys(expected[0] as object));
    expect(texts.join('')).not.toContain('secret.example');
  });

  it('without visit details (VISITS=off) gives every click its time alone', () => {
    const columns = createRawVisitColumns();
    for (const [i, visit] of visits.entries()) columns.push('hello', AT + i, visit);
    const texts = clickJsonTexts(columns.take(), BASE, undefined, () => link('Hello'));
    expect(texts.map((text) => JSON.parse(text as string))).toEqual(
      visits.map((_, i) => clickEventData(link('Hello'), BASE, AT + i, undefined, false)),
    );
  });
});
