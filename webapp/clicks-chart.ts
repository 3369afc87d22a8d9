import { t } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
const DAYS = 30;
const DAY_MS = 86_400_000;
const BAR_WIDTH = 8;
const GAP = 2;
const HEIGHT = 48;

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

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/**
 * A bar per day for the last 30 days, drawn with SVG attributes only (the page's policy allows
 * no inline styles). Screen readers get the total as the image's name, and each bar's day and
 * count as its title (also a tooltip).
 */
export function clicksChart(byDay: Array<{ day: string; clicks: number }>, now = Date.now()): HTMLElement {
  const days = lastThirtyDays(byDay, now);
  const most = Math.max(1, ...days.map(([, clicks]) => clicks));
  const total = days.reduce((sum, [, clicks]) => sum + clicks, 0);
  const width = DAYS * (BAR_WIDTH + GAP);
  const chart = svg('svg', { viewBox: `0 0 ${width} ${HEIGHT}`, width, height: HEIGHT, role: 'img', class: 'chart' });
  const label = t('webClicksChart', [String(total)]);
  chart.setAttribute('aria-label', label);
  chart.append(svg('line', { x1: 0, x2: width, y1: HEIGHT - 0.5, y2: HEIGHT - 0.5, class: 'chart-axis' }));
  days.forEach(([day, clicks], index) => {
    const barHeight = clicks === 0 ? 0 : Math.max(2, Math.round((clicks / most) * (HEIGHT - 4)));
    const bar = svg('rect', {
      x: index * (BAR_WIDTH + GAP),
      y: HEIGHT - barHeight,
      width: BAR_WIDTH,
      height: barHeight,
      class: 'chart-bar',
    });
    const title = svg('title', {});
    title.textContent = t('webClicksDay', [day, String(clicks)]);
    bar.append(title);
    chart.append(bar);
  });
  // The total as text too, for sighted readers (a month without clicks is only an axis).
  const caption = document.createElement('p');
  caption.className = 'muted';
  caption.setAttribute('aria-hidden', 'true');
  caption.textContent = label;
  const figure = document.createElement('div');
  figure.append(caption, chart);
  return figure;
}
