import { describe, expect, it } from 'vitest';
import type { RawVisit } from '../../core/management/visits/visits.js';
import type { ClickBatch } from '../../core/rules/clicks.js';
import { createClickCounter } from '../../server/clicks/click-counter.js';
import { countryCode, createVisitParser, referrerHost, USER_AGENT_KEPT } from '../../server/clicks/visit-parser.js';

const NOON = Date.UTC(2026, 0, 31, 12);
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)';
const raw = (overrides: Partial<RawVisit> = {}): RawVisit => ({
  referer: undefined,
  userAgent: CHROME,
  country: undefined,
  private: false,
  ...overrides,
});

describe('visit parser (runs in the batch writer)', () => {
  it('keeps the referrer host alone, direct for none or a non-URL', () => {
    expect(referrerHost('https://News.Example.org:8443/a/b?q=1#x')).toBe('news.example.org');
    expect(referrerHost('android-app://com.google.android.gm/')).toBe('com.google.android.gm');
    expect(referrerHost(undefined)).toBe('direct');
    expect(referrerHost('')).toBe('direct');
    expect(referrerHost('not a url')).toBe('direct');
  });

  it('takes a country header as ISO alpha-2 only', () => {
    expect(countryCode('kr')).toBe('KR');
    expect(countryCode([' US '])).toBe('US');
    for (const value of ['XX', 'T1', 'KOR', '', undefined]) expect(countryCode(value)).toBeNull();
  });

  it('parses browser, OS and device; cuts the User-Agent to 256 characters; bots are bots', () => {
    const parse = createVisitParser();
    const long = `${CHROME} ${'x'.repeat(400)}`;
    const visit = parse('c', NOON + 999, raw({ userAgent: long, referer: 'https://t.co/x', country: 'de' }));
    expect(visit).toEqual({
      codeKey: 'c',
      at: NOON / 1000,
      referrer: 't.co',
      country: 'DE',
      userAgent: long.slice(0, USER_AGENT_KEPT),
      browser: 'Chrome',
      os: 'Windows',
      device: 'desktop',
      bot: false,
    });
    expect(parse('c', NOON, raw({ userAgent: BOT })).bot).toBe(true);
  });

  it('keeps only the time (and bot or not) of a visit that asked not to be tracked', () => {
    const parse = createVisitParser({ countryOfAddress: () => 'US' });
    expect(parse('c', NOON, raw({ private: true, referer: 'https://t.co/', country: 'KR', peer: '8.8.8.8' }))).toEqual({
      codeKey: 'c',
      at: NOON / 1000,
      referrer: null,
      country: null,
      userAgent: null,
      browser: null,
      os: null,
      device: null,
      bot: false,
    });
  });

  it('asks the local database only when the header gave no country, and never keeps the address', () => {
    const asked: string[] = [];
    const parse = createVisitParser({
      countryOfAddress: (peer) => {
        asked.push(peer ?? '');
        return 'AU';
      },
    });
    expect(parse('c', NOON, raw({ country: 'KR', peer: '1.1.1.1' })).country).toBe('KR');
    const looked = parse('c', NOON, raw({ peer: '1.1.1.1' }));
    expect(looked.country).toBe('AU');
    expect(asked).toEqual(['1.1.1.1']);
    expect(JSON.stringify(looked)).not.toContain('1.1.1.1');
  });
});

describe('click counter with visits', () => {
  it('writes visits in the batch of their clicks; a bot is a visit but no click', async () => {
    const written: ClickBatch[] = [];
    const counter = createClickCounter({
      write: async (batch) => {
        written.push(batch);
      },
      logger: { info() {}, warn() {}, error() {} },
      writeEveryMs: 60_000,
      parseVisit: createVisitParser(),
      visitsRetentionDays: 90,
      now: () => NOON,
    });
    counter.count('a', NOON, raw());
    counter.count('a', NOON, raw({ userAgent: BOT }));
    counter.count('b', NOON, raw({ private: true }));
    expect(counter.pending).toBe(3);
    await counter.flush();
    expect(written).toHaveLength(1);
    const [batch] = written as [ClickBatch];
    expect(batch.codeKeys).toEqual(['a', 'b']);
    expect(batch.counts).toEqual([1, 1]);
    expect(batch.visits?.map((v) => [v.codeKey, v.bot])).toEqual([
      ['a', false],
      ['a', true],
      ['b', false],
    ]);
    expect(batch.foldBefore).toBe(NOON / 1000 - 90 * 86_400);
    await counter.close();
  });
});
