import type { Translate } from '../ui/i18n.js';
import { plural } from '../ui/plural.js';

const SVG = 'http://www.w3.org/2000/svg';
const DAYS = 30;
const DAY_MS = 86_400_000;
const STEP = 10;
const BAR = 8;
const TOP = 16; // room for the scale's label
const PLOT = 64;
const AXIS = 18; // room for the dates under the bars
const WIDTH = DAYS * STEP;
const HEIGHT = TOP + PLOT + AXIS;

/** The page's words and language, passed in so the chart can be drawn (and tested) anywhere. */
export interface Words {
  t: Translate;
  language: string;
}

/** The last 30 UTC days, oldest first, with their clicks (0 for days the server did not list). */
export function lastThirtyDays(byDay: Array<{ day: string; clicks: number }>, now: number): Array<[string, number]> {
  const counts = new Map(byDay.map(({ day, clicks }) => [day, clicks]));
  const days: Array<[string, number]> = [];
  for (let back = DAYS - 1; back >= 0; back--) {
    const day = new Date(now - back * DAY_MS).toISOString().slice(0, 10);
    days.push([day, counts.get(day) ?? 0]);
  }
  return days;
}

/** "Nov 25" / "11월 25일": a UTC day as the page's language writes it, without the year. */
export function dayLabel(day: string, language: string): string {
  const format = new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return format.format(Date.parse(`${day}T00:00:00Z`));
}

function svg(doc: Document, tag: string, attributes: Record<string, string | number>, text?: string): SVGElement {
  const element = doc.createElementNS(SVG, tag) as SVGElement;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/**
 * A bar per UTC day for the last 30 days, drawn with SVG attributes only (the page's policy
 * allows no inline styles), scaled to the width it is given so it stays readable on a phone.
 * The axis names the first, middle and last day; a line at the top carries the busiest day's
 * count, so the bars have a scale. Each bar's day and count is its title (a tooltip), and the
 * total is the image's name for screen readers.
 */
export function clicksChart(
  doc: Document,
  words: Words,
  byDay: Array<{ day: string; clicks: number }>,
  now = Date.now(),
): SVGElement {
  const { t, language } = words;
  const days = lastThirtyDays(byDay, now);
  const most = Math.max(0, ...days.map(([, clicks]) => clicks));
  const total = days.reduce((sum, [, clicks]) => sum + clicks, 0);
  const number = new Intl.NumberFormat(language);
  const chart = svg(doc, 'svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', class: 'chart' });
  chart.setAttribute('aria-label', t('webClicksChart', [number.format(total)]));
  const base = TOP + PLOT;
  chart.append(
    svg(doc, 'line', { x1: 0, x2: WIDTH, y1: TOP, y2: TOP, class: 'chart-grid' }),
    svg(doc, 'text', { x: 0, y: TOP - 4, class: 'chart-label' }, t('webChartMax', [number.format(most)])),
    svg(doc, 'line', { x1: 0, x2: WIDTH, y1: base + 0.5, y2: base + 0.5, class: 'chart-axis' }),
  );
  days.forEach(([day, clicks], index) => {
    const height = clicks === 0 || most === 0 ? 0 : Math.max(2, Math.round((clicks / most) * PLOT));
    const x = index * STEP + (STEP - BAR) / 2;
    const bar = svg(doc, 'rect', { x, y: base - height, width: BAR, height, class: 'chart-bar' });
    const title = svg(doc, 'title', {});
    const keys = { one: 'webDayClicksOne', other: 'webDayClicksOther' } as const;
    title.textContent = plural(t, language, clicks, keys, dayLabel(day, language));
    bar.append(title);
    chart.append(bar);
  });
  const ticks: Array<[number, 'start' | 'middle' | 'end']> = [
    [0, 'start'],
    [Math.floor(DAYS / 2), 'middle'],
    [DAYS - 1, 'end'],
  ];
  for (const [index, anchor] of ticks) {
    const x = anchor === 'start' ? 0 : anchor === 'end' ? WIDTH : index * STEP + STEP / 2;
    const day = days[index]?.[0] ?? '';
    chart.append(
      svg(doc, 'text', { x, y: HEIGHT - 3, 'text-anchor': anchor, class: 'chart-label' }, dayLabel(day, language)),
    );
  }
  return chart;
}
