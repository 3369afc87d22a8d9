import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { catalogMessages } from '../../ui/catalog-messages.js';
import { createI18n } from '../../ui/i18n.js';
import { dayLabel, lastThirtyDays } from '../../webapp/clicks-chart.js';
import type { LinkStats } from '../../webapp/link-stats.js';
import { statsView } from '../../webapp/stats-view.js';
import { statName } from '../../webapp/top-lists.js';

// The stats in a link's details, drawn from fixture data shaped as `GET /api/v1/links/{code}/stats`
// answers (SPEC "Visits"), in English and Korean, and the older server's daily clicks alone.
const NOW = Date.parse('2026-11-25T12:00:00Z');
const words = (language: string) => {
  const { t } = createI18n(catalogMessages([language]));
  return { t, language };
};
const { document } = parseHTML('<!doctype html><html><body></body></html>');

const STATS: LinkStats = {
  total: 1234,
  bots: 7,
  days: [
    { day: '2026-11-25', clicks: 1000 },
    { day: '2026-11-10', clicks: 234 },
    { day: '2026-01-01', clicks: 99 }, // outside the 30 days shown
  ],
  referrers: [
    { name: 'direct', clicks: 800 },
    { name: 'news.example.com', clicks: 400 },
    { name: 'other', clicks: 34 },
  ],
  countries: [
    { name: 'KR', clicks: 1000 },
    { name: 'US', clicks: 234 },
  ],
  browsers: [{ name: 'Chrome', clicks: 1234 }],
  os: [{ name: 'Android', clicks: 1234 }],
  devices: [
    { name: 'mobile', clicks: 1200 },
    { name: 'desktop', clicks: 34 },
  ],
};

const texts = (root: Element, selector: string) =>
  [...root.querySelectorAll(selector)].map((element) => element.textContent);

/** The n-th top list (linkedom's :nth-child needs a parent the view does not have yet). */
const list = (view: Element, index: number) => view.querySelectorAll('.top-list')[index] as Element;

describe('statsView with the full stats', () => {
  it('shows the totals, a bar a day with the axis dated, and the five top lists in words', () => {
    const view = statsView(document, { kind: 'stats', stats: STATS }, words('en'), NOW);
    expect(view.querySelector('.stats-total')?.textContent).toBe('Clicks: 1,234 · bots (not counted): 7');
    const chart = view.querySelector('svg.chart');
    expect(chart?.getAttribute('aria-label')).toBe('Clicks in the last 30 days: 1,234');
    expect(chart?.querySelectorAll('rect.chart-bar')).toHaveLength(30);
    // The axis: the first, middle and last day of the 30, and the busiest day's count as the scale.
    expect(texts(chart as Element, 'text')).toEqual(['most in a day: 1,000', 'Oct 27', 'Nov 11', 'Nov 25']);
    const titles = texts(chart as Element, 'rect title');
    expect(titles.at(-1)).toBe('Nov 25: 1,000 clicks');
    expect(titles[0]).toBe('Oct 27: 0 clicks');
    expect(texts(view, '.top-list h4')).toEqual(['Referrers', 'Countries', 'Browsers', 'Operating systems', 'Devices']);
    expect(texts(list(view, 0), '.top-name')).toEqual(['Direct or unknown', 'news.example.com', 'Others']);
    expect(texts(list(view, 1), '.top-name')).toEqual(['South Korea', 'United States']);
    expect(texts(list(view, 4), '.top-name')).toEqual(['Phone', 'Desktop']);
    expect(texts(list(view, 0), '.top-count')).toEqual(['800', '400', '34']);
  });

  it('speaks Korean: dates as Korean writes them, country and device names, the same numbers', () => {
    const view = statsView(document, { kind: 'stats', stats: STATS }, words('ko'), NOW);
    expect(view.querySelector('.stats-total')?.textContent).toBe('클릭: 1,234 · 봇(세지 않음): 7');
    expect(texts(view.querySelector('svg.chart') as Element, 'text').slice(1)).toEqual([
      '10월 27일',
      '11월 11일',
      '11월 25일',
    ]);
    expect(texts(list(view, 1), '.top-name')).toEqual(['대한민국', '미국']);
    expect(texts(list(view, 4), '.top-name')).toEqual(['휴대폰', '데스크톱']);
    expect(texts(view, '.top-list h4')).toContain('유입 경로');
  });

  it('says there are no clicks yet rather than drawing five empty lists', () => {
    const empty: LinkStats = {
      ...STATS,
      total: 0,
      bots: 0,
      days: [],
      referrers: [],
      countries: [],
      browsers: [],
      os: [],
      devices: [],
    };
    const view = statsView(document, { kind: 'stats', stats: empty }, words('en'), NOW);
    expect(view.querySelectorAll('.top-list')).toHaveLength(0);
    expect(view.textContent).toContain('No clicks yet.');
    expect(view.querySelectorAll('rect.chart-bar')).toHaveLength(30);
  });
});

describe('statsView from an older server', () => {
  it('draws the daily clicks alone and says that is all this server shows', () => {
    const view = statsView(document, { kind: 'days', days: [{ day: '2026-11-24', clicks: 3 }] }, words('en'), NOW);
    expect(view.querySelector('svg.chart')?.getAttribute('aria-label')).toBe('Clicks in the last 30 days: 3');
    expect(view.querySelectorAll('.top-list')).toHaveLength(0);
    expect(view.textContent).toContain('This server shows daily clicks only.');
  });

  it('says a server that counts nothing does not count clicks', () => {
    const view = statsView(document, { kind: 'none' }, words('en'), NOW);
    expect(view.querySelector('svg')).toBeNull();
    expect(view.textContent).toContain('This server does not count clicks yet.');
  });
});

describe('the pieces', () => {
  it('lastThirtyDays fills the days the server did not list with 0, oldest first', () => {
    const days = lastThirtyDays([{ day: '2026-11-24', clicks: 5 }], NOW);
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual(['2026-10-27', 0]);
    expect(days.at(-2)).toEqual(['2026-11-24', 5]);
  });

  it('dayLabel writes a UTC day without its year, whatever the zone', () => {
    expect(dayLabel('2026-01-01', 'en')).toBe('Jan 1');
    expect(dayLabel('2026-01-01', 'ko')).toBe('1월 1일');
  });

  it('statName keeps names it cannot say better, and says unknown ones', () => {
    expect(statName('browsers', 'Firefox', words('en'))).toBe('Firefox');
    expect(statName('countries', '', words('en'))).toBe('Unknown');
    expect(statName('countries', 'unknown', words('ko'))).toBe('알 수 없음');
    expect(statName('referrers', 'Direct', words('en'))).toBe('Direct or unknown');
  });
});
