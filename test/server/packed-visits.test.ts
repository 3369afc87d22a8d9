import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tallyName, VISIT_DIMENSIONS, type VisitRow } from '../../core/management/visits/visits.js';
import { encodeVisits } from '../../server/clicks/encoded-visits.js';
import {
  BOTS_KEY,
  type DayCounts,
  dayCountsJson,
  type PackedVisitRow,
  packVisits,
  ROW_SPAN_SECONDS,
  VISITS_PER_ROW,
  visitPackerOf,
} from '../../server/clicks/packed-visits.js';
import { createVisitPage, talliesOfCounts, unpackVisits } from '../../server/clicks/stored-visits.js';

const name = (values: string[]) => fc.option(fc.constantFrom(...values), { nil: null });
const visit = fc.record<VisitRow>({
  codeKey: fc.constantFrom('a', 'ab', 'b', 'B', '한글', 'a-b'),
  // Two days, and times far enough apart within one to split a link's row.
  at: fc.constantFrom(20_000, 20_001).chain((day) => fc.integer({ min: day * 86_400, max: day * 86_400 + 300 })),
  referrer: name(['direct', 't.co', 'www.google.com', 'unknown', '"quoted"\\host']),
  country: name(['KR', 'US']),
  userAgent: name(['Mozilla/5.0', 'curl/8.0']),
  browser: name(['Chrome', 'Safari', 'Microsoft Edge']),
  os: name(['Windows', 'iOS']),
  device: name(['desktop', 'mobile']),
  bot: fc.boolean(),
});

/** What a stored visit shows of a visit (all but its code key). */
const shown = ({ at, referrer, country, userAgent, browser, os, device, bot }: VisitRow) => ({
  at: at * 1000,
  referrer,
  country,
  userAgent,
  browser,
  os,
  device,
  bot,
});

/** The plain definition of a batch's daily counts: `dimension:name` (or `bots`) per link and day. */
function referenceCounts(visits: readonly VisitRow[]): Map<string, Record<string, number>> {
  const counts = new Map<string, Record<string, number>>();
  for (const v of visits) {
    const key = `${v.codeKey} ${Math.floor(v.at / 86_400)}`;
    const day = counts.get(key) ?? {};
    counts.set(key, day);
    const names = v.bot ? [BOTS_KEY] : VISIT_DIMENSIONS.map((d) => `${d}:${tallyName(v, d)}`);
    for (const n of names) day[n] = (day[n] ?? 0) + 1;
  }
  return counts;
}

describe('packed visits', () => {
  it('keeps every visit of a batch, each row one link within the span, and counts them per link and day', () => {
    fc.assert(
      fc.property(fc.array(visit, { maxLength: 200 }), (visits) => {
        const { rows, days } = packVisits(visits);
        const unpacked = rows.flatMap((row, r) => unpackVisits(row.visits, r + 1));
        const byLink = (codeKey: string) => visits.filter((v) => v.codeKey === codeKey).map(shown);
        for (const codeKey of new Set(visits.map((v) => v.codeKey))) {
          const mine = rows.flatMap((row, r) => (row.codeKey === codeKey ? unpackVisits(row.visits, r + 1) : []));
          expect(mine.map(({ id, ...rest }) => rest)).toEqual(byLink(codeKey));
        }
        expect(unpacked).toHaveLength(visits.length);
        for (const row of rows) {
          const times = unpackVisits(row.visits, 1).map((v) => v.at / 1000);
          expect(row.count).toBe(times.length);
          expect(row.firstAt).toBe(Math.min(...times));
          expect(row.lastAt).toBe(Math.max(...times));
          expect(row.lastAt - row.firstAt).toBeLessThanOrEqual(ROW_SPAN_SECONDS);
        }
        const reference = referenceCounts(visits);
        expect(days.map((d) => `${d.codeKey} ${d.day}`)).toEqual(
          [...reference.keys()].sort((a, b) => {
            const [ka, da] = a.split(' ') as [string, string];
            const [kb, db] = b.split(' ') as [string, string];
            return ka < kb ? -1 : ka > kb ? 1 : Number(da) - Number(db);
          }),
        );
        for (const d of days) {
          const counts = JSON.parse(dayCountsJson(d));
          expect(counts).toEqual(reference.get(`${d.codeKey} ${d.day}`));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('packs link by link in any order what the whole batch packs, each link once', () => {
    fc.assert(
      fc.property(
        fc.array(visit, { maxLength: 120 }).chain((visits) => {
          const links = new Set(visits.map((v) => v.codeKey)).size;
          const order = fc.shuffledSubarray([...Array(links).keys()], { minLength: links, maxLength: links });
          return fc.tuple(fc.constant(visits), order);
        }),
        ([visits, order]) => {
          const whole = packVisits(visits);
          const packer = visitPackerOf(encodeVisits(visits));
          expect(packer.codeKeys).toEqual([...new Set(visits.map((v) => v.codeKey))].sort());
          const byLink = new Map<string, { rows: PackedVisitRow[]; days: DayCounts[] }>();
          for (const link of order) {
            // The writer's way: one link's rows and days at a time.
            const rows: PackedVisitRow[] = [];
            const days: DayCounts[] = [];
            packer.pack(link, rows, days);
            byLink.set(packer.codeKeys[link] as string, { rows, days });
          }
          for (const [codeKey, { rows, days }] of byLink) {
            expect(rows).toEqual(whole.rows.filter((row) => row.codeKey === codeKey));
            expect(days).toEqual(whole.days.filter((day) => day.codeKey === codeKey));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('splits a busy link past the most visits a row holds', () => {
    const many = Array.from(
      { length: VISITS_PER_ROW + 5 },
      (): VisitRow => ({
        codeKey: 'hot',
        at: 1_800_000_000,
        referrer: 'direct',
        country: null,
        userAgent: null,
        browser: null,
        os: null,
        device: null,
        bot: false,
      }),
    );
    const { rows } = packVisits(many);
    expect(rows.map((row) => row.count)).toEqual([VISITS_PER_ROW, 5]);
  });

  it('adds up stored daily counts into stats tallies, bots apart', () => {
    expect(
      talliesOfCounts([
        { 'referrer:t.co': 2, 'country:unknown': 1, bots: 3 },
        { 'referrer:t.co': 1, 'os:Mac OS: X': 4, bots: 1 },
      ]),
    ).toEqual({
      bots: 4,
      tallies: [
        { dimension: 'referrer', name: 't.co', clicks: 3 },
        { dimension: 'country', name: 'unknown', clicks: 1 },
        { dimension: 'os', name: 'Mac OS: X', clicks: 4 },
      ],
    });
  });

  it('pages through overlapping rows newest first, each visit exactly once', () => {
    fc.assert(
      fc.property(
        fc.array(visit, { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 7 }),
        (visits, limit) => {
          // Batches of a few visits each, as two processes' beats would write them.
          const stored: Array<{ id: number; lastAt: number; visits: string }> = [];
          for (let i = 0; i < visits.length; i += 9)
            for (const row of packVisits(visits.slice(i, i + 9).map((v) => ({ ...v, codeKey: 'x' }))).rows)
              stored.push({ id: stored.length + 1, lastAt: row.lastAt, visits: row.visits });
          const every = stored
            .flatMap((row) => unpackVisits(row.visits, row.id))
            .sort((a, b) => b.at - a.at || b.id - a.id);
          const walked = [];
          let before: { at: number; id: number } | undefined;
          for (;;) {
            const page = createVisitPage(limit, before);
            const scan = [...stored].sort((a, b) => b.lastAt - a.lastAt || b.id - a.id);
            for (const row of scan) if (!page.add(row.id, row.lastAt, row.visits)) break;
            const got = page.visits();
            walked.push(...got);
            if (got.length < limit) break;
            const last = got[got.length - 1] as { at: number; id: number };
            before = { at: last.at, id: last.id };
          }
          expect(walked).toEqual(every);
        },
      ),
    );
  });
});
