import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawVisit } from '../../core/management/visits/visits.js';
import { dayOf } from '../../core/rules/clicks.js';
import { createClickCounter } from '../../server/clicks/click-counter.js';
import { type CountedClickBatch, decodeVisits, encodeVisits } from '../../server/clicks/encoded-visits.js';
import { createRawVisitColumns, NO_STRING } from '../../server/clicks/raw-visit-columns.js';
import { concatVisits, dropOldestVisits, visitCount } from '../../server/clicks/visit-chunks.js';
import { encodeRawVisits } from '../../server/clicks/visit-encoder.js';
import { createVisitParser } from '../../server/clicks/visit-parser.js';

const NOON = Date.UTC(2026, 0, 31, 12);
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const BOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)';
const raw = (overrides: Partial<RawVisit> = {}): RawVisit => ({
  referer: undefined,
  userAgent: CHROME,
  country: undefined,
  private: false,
  ...overrides,
});
const noVisits = { strings: [null], fields: new Int32Array(), at: new Float64Array() };

describe('raw visit columns (a beat of clicks, on the redirect)', () => {
  it('keeps each distinct string once and indexes per click; a header not sent is none', () => {
    const columns = createRawVisitColumns();
    columns.push('a', NOON, raw({ referer: 'https://t.co/x', country: 'KR' }));
    columns.push('a', NOON + 1, raw({ referer: 'https://t.co/x', country: ['US', 'KR'] }));
    columns.push('b', NOON + 2, raw({ userAgent: undefined, private: true }));
    const batch = columns.take();
    expect(batch.length).toBe(3);
    expect(batch.strings).toEqual(['a', CHROME, 'https://t.co/x', 'KR', 'US', 'b']);
    expect([...batch.codeKeys.subarray(0, 3)]).toEqual([0, 0, 5]);
    expect([...batch.agents.subarray(0, 3)]).toEqual([1, 1, NO_STRING]);
    expect([...batch.countries.subarray(0, 3)]).toEqual([3, 4, NO_STRING]);
    expect([...batch.privates.subarray(0, 3)]).toEqual([0, 0, 1]);
    expect(batch.addresses.size).toBe(0);
    expect(columns.length).toBe(0);
    expect(columns.take().strings).toEqual([]);
  });

  it('grows past its first size and keeps the address of a country lookup by click index', () => {
    const columns = createRawVisitColumns();
    for (let i = 0; i < 3000; i++) columns.push(`k${i % 7}`, NOON + i, raw(i === 2500 ? { peer: '1.1.1.1' } : {}));
    const batch = columns.take();
    expect(batch.length).toBe(3000);
    expect(batch.strings).toHaveLength(8);
    expect(batch.times[2999]).toBe(NOON + 2999);
    expect([...batch.addresses.keys()]).toEqual([2500]);
  });
});

describe('encoding a beat (once per distinct value)', () => {
  it('parses each distinct User-Agent, referrer and country once', () => {
    const parser = createVisitParser();
    const asked = { agents: 0, hosts: 0 };
    const facts = {
      ...parser.facts,
      agentOf: (agent: string | null) => {
        asked.agents++;
        return parser.facts.agentOf(agent);
      },
      hostOf: (referer: string | undefined) => {
        asked.hosts++;
        return parser.facts.hostOf(referer);
      },
    };
    const columns = createRawVisitColumns();
    for (let i = 0; i < 100; i++)
      columns.push('a', NOON, raw({ userAgent: i % 2 ? CHROME : IPHONE, referer: 'https://t.co/' }));
    const [day] = encodeRawVisits(columns.take(), facts);
    expect(asked).toEqual({ agents: 3, hosts: 1 }); // each value once (and the absent User-Agent's facts)
    expect(day?.visits.strings).toHaveLength(11); // none, the code key, two agents' four strings, t.co
    expect(day?.counts).toEqual(new Map([['a', 100]]));
  });

  it('gives what parsing and encoding each click did: private visits, bots, GeoIP, days', () => {
    const agents = [CHROME, IPHONE, BOT, '', `${CHROME} ${'x'.repeat(400)}`, undefined];
    const rawVisit = fc.record<RawVisit>({
      referer: fc.constantFrom(undefined, '', 'https://t.co/x', 'not a url', 'https://News.example.org/a'),
      userAgent: fc.constantFrom(...agents),
      country: fc.constantFrom(undefined, 'kr', 'XX', [' US '], []),
      private: fc.boolean(),
      peer: fc.constantFrom(undefined, '1.1.1.1'),
      forwardedFor: fc.constantFrom(undefined, '2.2.2.2'),
    });
    const click = fc.tuple(fc.constantFrom('a', 'b', 'unknown'), fc.integer({ min: -2000, max: 2000 }), rawVisit);
    fc.assert(
      fc.property(fc.array(click, { maxLength: 60 }), (clicks) => {
        const parser = createVisitParser({
          countryOfAddress: (peer, forwarded) => (peer === '1.1.1.1' && forwarded ? 'AU' : null),
        });
        const midnight = Date.UTC(2026, 1, 1);
        const columns = createRawVisitColumns();
        for (const [codeKey, offset, visit] of clicks) columns.push(codeKey, midnight + offset, visit);
        const days = encodeRawVisits(columns.take(), parser.facts);
        const expected = clicks.map(([codeKey, offset, visit]) => parser(codeKey, midnight + offset, visit));
        expect(days.flatMap(({ visits }) => decodeVisits(visits))).toEqual(expected);
        for (const { day, counts, visits } of days) {
          const rows = decodeVisits(visits);
          expect(rows.every((row) => dayOf(row.at * 1000) === day)).toBe(true);
          const clicksOf = new Map<string, number>();
          for (const row of rows) if (!row.bot) clicksOf.set(row.codeKey, (clicksOf.get(row.codeKey) ?? 0) + 1);
          expect(counts).toEqual(clicksOf);
        }
      }),
    );
  });
});

describe('visit chunks (held and kept visits)', () => {
  const parse = createVisitParser();
  const chunk = (codeKey: string, agents: string[]) =>
    encodeVisits(agents.map((userAgent, i) => parse(codeKey, NOON + i * 1000, raw({ userAgent }))));

  it('merges chunks in order into one dictionary, remapping their indexes', () => {
    const first = chunk('a', [CHROME, IPHONE]);
    const second = chunk('b', [IPHONE, BOT, IPHONE]);
    const merged = concatVisits([first, second]);
    expect(decodeVisits(merged)).toEqual([...decodeVisits(first), ...decodeVisits(second)]);
    expect(new Set(merged.strings).size).toBe(merged.strings.length);
    expect(concatVisits([first])).toBe(first);
  });

  it('drops the oldest visits, cutting a chunk when needed; a merge leaves the strings no visit uses', () => {
    const first = chunk('a', [CHROME, IPHONE]);
    const second = chunk('b', [BOT, IPHONE, CHROME]);
    const kept = dropOldestVisits([first, second], 3);
    expect(visitCount(kept)).toBe(2);
    expect(decodeVisits(concatVisits(kept))).toEqual(decodeVisits(second).slice(1));
    const cut = concatVisits([...kept, chunk('c', [])]);
    expect(cut.strings).not.toContain(BOT);
    expect(visitCount(dropOldestVisits([first], 0))).toBe(2);
    expect(dropOldestVisits([first, second], 9)).toEqual([]);
  });
});

describe('click counter with visits, refused', () => {
  const refusingCounter = (maxKeptVisits: number) => {
    const written: CountedClickBatch[] = [];
    const state = { refusing: true };
    const errors: object[] = [];
    const counter = createClickCounter({
      write: async (batch) => {
        if (state.refusing) throw new Error('database is locked');
        written.push(batch);
      },
      logger: { info() {}, warn() {}, error: (fields) => errors.push(fields) },
      writeEveryMs: 60_000,
      parseVisit: createVisitParser(),
      maxKeptVisits,
      now: () => NOON,
    });
    return { counter, written, state, errors };
  };
  const agentsWritten = (written: CountedClickBatch[]) =>
    written.flatMap((batch) => decodeVisits(batch.encodedVisits ?? noVisits).map((v) => `${v.codeKey}:${v.browser}`));

  it('puts a refused batch’s visits back in front of later ones, in order', async () => {
    const { counter, written, state } = refusingCounter(100);
    counter.count('a', NOON, raw());
    counter.count('b', NOON, raw({ userAgent: IPHONE }));
    expect(await counter.flush()).toBe(false);
    counter.count('c', NOON, raw());
    expect(await counter.flush()).toBe(false);
    state.refusing = false;
    expect(await counter.flush()).toBe(true);
    expect(agentsWritten(written)).toEqual(['a:Chrome', 'b:Safari', 'c:Chrome']);
    expect(written.map(({ codeKeys, counts }) => [codeKeys, counts])).toEqual([
      [
        ['a', 'b', 'c'],
        [1, 1, 1],
      ],
    ]);
    await counter.close();
  });

  it('beyond maxKeptVisits drops the oldest visits’ detail, keeping their clicks', async () => {
    const { counter, written, state, errors } = refusingCounter(3);
    for (const codeKey of ['a', 'b']) counter.count(codeKey, NOON, raw());
    expect(await counter.flush()).toBe(false);
    for (const codeKey of ['c', 'd', 'e']) counter.count(codeKey, NOON, raw());
    expect(await counter.flush()).toBe(false);
    expect(errors).toEqual([{ droppedVisits: 2 }]);
    state.refusing = false;
    expect(await counter.flush()).toBe(true);
    expect(agentsWritten(written)).toEqual(['c:Chrome', 'd:Chrome', 'e:Chrome']);
    expect(written.reduce((sum, { counts }) => sum + counts.reduce((a, b) => a + b, 0), 0)).toBe(5);
    await counter.close();
  });
});
