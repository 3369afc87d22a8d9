import { describe, expect, it } from 'vitest';
import type { RawVisit } from '../../core/management/visits/visits.js';
import { createClickCounter } from '../../server/clicks/click-counter.js';
import { type CountedClickBatch, decodeVisits } from '../../server/clicks/encoded-visits.js';
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

/** A counter recording visits into `written`, flushed by hand. */
function counterWithVisits(options: Partial<Parameters<typeof createClickCounter>[0]>) {
  const written: CountedClickBatch[] = [];
  const counter = createClickCounter({
    write: async (batch) => {
      written.push(batch);
    },
    logger: { info() {}, warn() {}, error() {} },
    writeEveryMs: 60_000,
    parseVisit: createVisitParser(),
    ...options,
  });
  return { counter, written };
}

describe('click counter with visits', () => {
  it('writes visits in the batch of their clicks; a bot is a visit but no click', async () => {
    const { counter, written } = counterWithVisits({ visitsRetentionDays: 90, now: () => NOON });
    counter.count('a', NOON, raw());
    counter.count('a', NOON, raw({ userAgent: BOT }));
    counter.count('b', NOON, raw({ private: true }));
    expect(counter.pending).toBe(3);
    await counter.flush();
    expect(written).toHaveLength(1);
    const [batch] = written as [CountedClickBatch];
    expect(batch.codeKeys).toEqual(['a', 'b']);
    expect(batch.counts).toEqual([1, 1]);
    expect(
      decodeVisits(batch.encodedVisits ?? { strings: [], fields: new Int32Array(), at: new Float64Array() }).map(
        (v) => [v.codeKey, v.bot],
      ),
    ).toEqual([
      ['a', false],
      ['a', true],
      ['b', false],
    ]);
    expect(batch.foldBefore).toBe(NOON / 1000 - 90 * 86_400);
    await counter.close();
  });

  it('holds many visits back for a few seconds (their clicks are written on the beat), then writes them all', async () => {
    let clock = NOON;
    const { counter, written } = counterWithVisits({ holdVisitsMs: 5000, writeVisitsBelow: 3, now: () => clock });
    const visitsWritten = () => written.reduce((sum, batch) => sum + (batch.encodedVisits?.at.length ?? 0), 0);
    const clicksWritten = () => written.reduce((sum, batch) => sum + batch.counts.reduce((a, b) => a + b, 0), 0);

    // Few waiting: written at once.
    counter.count('a', clock, raw());
    await counter.flush();
    expect([clicksWritten(), visitsWritten()]).toEqual([1, 1]);

    // Many waiting, the last visits written just now: the clicks go, the visits wait.
    for (let i = 0; i < 4; i++) counter.count('a', clock, raw());
    clock += 1000;
    await counter.flush();
    expect([clicksWritten(), visitsWritten()]).toEqual([5, 1]);
    for (let i = 0; i < 2; i++) counter.count('b', clock, raw());
    clock += 1000;
    await counter.flush();
    expect([clicksWritten(), visitsWritten()]).toEqual([7, 1]);

    // Once the hold is over they go together, with no clicks waiting (a batch of visits alone).
    clock += 4000;
    await counter.flush();
    expect([clicksWritten(), visitsWritten()]).toEqual([7, 7]);
    expect(written.at(-1)?.codeKeys).toEqual([]);

    // Closing writes whatever is held.
    for (let i = 0; i < 5; i++) counter.count('c', clock, raw());
    await counter.flush();
    expect(visitsWritten()).toBe(7);
    await counter.close();
    expect([clicksWritten(), visitsWritten()]).toEqual([12, 12]);
  });

  it('writes many visits on the beat when they are spread over about as many links (waiting saves no row)', async () => {
    let clock = NOON;
    const { counter, written } = counterWithVisits({ holdVisitsMs: 5000, writeVisitsBelow: 3, now: () => clock });
    const visitsWritten = () => written.reduce((sum, batch) => sum + (batch.encodedVisits?.at.length ?? 0), 0);
    counter.count('first', clock, raw());
    await counter.flush();

    // Six visits of six links: each would be a row of its own however long it waited.
    for (const code of ['a', 'b', 'c', 'd', 'e', 'f']) counter.count(code, clock, raw());
    clock += 1000;
    await counter.flush();
    expect(visitsWritten()).toBe(7);

    // Six visits of two links: held, as before.
    for (const code of ['a', 'a', 'a', 'b', 'b', 'b']) counter.count(code, clock, raw());
    clock += 1000;
    await counter.flush();
    expect(visitsWritten()).toBe(7);
    await counter.close();
    expect(visitsWritten()).toBe(13);
  });
});
