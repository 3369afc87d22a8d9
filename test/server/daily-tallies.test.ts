import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOTS_DIMENSION, tallyName, VISIT_DIMENSIONS, type VisitRow } from '../../core/management/visits/visits.js';
import { type DailyTallies, dailyTallies } from '../../server/clicks/daily-tallies.js';

/** The plain definition: one key per (code key, day, dimension, name), counted, sorted. */
function reference(visits: readonly VisitRow[]): DailyTallies {
  const counts = new Map<string, number>();
  const add = (codeKey: string, day: number, dimension: string, name: string) => {
    const key = `${codeKey}\u0000${day}\u0000${dimension}\u0000${name}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (const visit of visits) {
    const day = Math.floor(visit.at / 86_400);
    if (visit.bot) add(visit.codeKey, day, BOTS_DIMENSION, '');
    else for (const dimension of VISIT_DIMENSIONS) add(visit.codeKey, day, dimension, tallyName(visit, dimension));
  }
  const tallies: DailyTallies = { codeKeys: [], days: [], dimensions: [], names: [], counts: [] };
  for (const key of [...counts.keys()].sort()) {
    const [codeKey, day, dimension, name] = key.split('\u0000') as [string, string, string, string];
    tallies.codeKeys.push(codeKey);
    tallies.days.push(Number(day));
    tallies.dimensions.push(dimension);
    tallies.names.push(name);
    tallies.counts.push(counts.get(key) as number);
  }
  return tallies;
}

const name = (values: string[]) => fc.option(fc.constantFrom(...values), { nil: null });
const visit = fc.record<VisitRow>({
  codeKey: fc.constantFrom('a', 'ab', 'b', 'B', 'k0000001', 'a-b'),
  // Days of different lengths as text too (999 and 1000 sort differently as text and as numbers).
  at: fc
    .constantFrom(999, 1000, 20_000, 20_001)
    .chain((day) => fc.integer({ min: day * 86_400, max: day * 86_400 + 86_399 })),
  referrer: name(['direct', 't.co', 'www.google.com', 'unknown']),
  country: name(['KR', 'US']),
  userAgent: name(['Mozilla/5.0']),
  browser: name(['Chrome', 'Safari', 'Firefox']),
  os: name(['Windows', 'iOS']),
  device: name(['desktop', 'mobile', 'tablet']),
  bot: fc.boolean(),
});

describe('daily tallies of a batch of visits', () => {
  it('are the rows, in the order, the core makes of any batch', () => {
    fc.assert(
      fc.property(fc.array(visit, { maxLength: 200 }), (visits) => {
        expect(dailyTallies(visits)).toEqual(reference(visits));
      }),
      { numRuns: 300 },
    );
  });

  it('count a bot only under bots, and a withheld value as unknown', () => {
    const at = 20_000 * 86_400;
    const visits: VisitRow[] = [
      {
        codeKey: 'x',
        at,
        referrer: null,
        country: null,
        userAgent: null,
        browser: null,
        os: null,
        device: null,
        bot: false,
      },
      {
        codeKey: 'x',
        at,
        referrer: 't.co',
        country: 'KR',
        userAgent: 'u',
        browser: 'Chrome',
        os: 'iOS',
        device: 'mobile',
        bot: true,
      },
    ];
    const tallies = dailyTallies(visits);
    expect(tallies.dimensions).toEqual(['bots', 'browser', 'country', 'device', 'os', 'referrer']);
    expect(tallies.names).toEqual(['', 'unknown', 'unknown', 'unknown', 'unknown', 'unknown']);
    expect(tallies.counts).toEqual([1, 1, 1, 1, 1, 1]);
  });
});
