import { clicksChart, type Words } from './clicks-chart.js';
import type { StatsView } from './link-stats.js';
import { topLists } from './top-lists.js';

function paragraph(doc: Document, text: string, className = 'muted'): HTMLParagraphElement {
  const element = doc.createElement('p');
  element.className = className;
  element.textContent = text;
  return element;
}

/**
 * What a link's details show of its clicks: with the full stats, the totals (bots apart, as
 * they are not clicks), the daily chart and the top lists; from an older server, its daily
 * chart alone and a line saying so; from a server that counts nothing, that line. Built from
 * data only, so the tests can draw it from fixtures.
 */
export function statsView(doc: Document, view: StatsView, words: Words, now = Date.now()): HTMLElement {
  const { t, language } = words;
  const box = doc.createElement('div');
  box.className = 'stats';
  const heading = doc.createElement('h4');
  heading.textContent = t('webStatsHeading');
  box.append(heading);
  if (view.kind === 'none') {
    box.append(paragraph(doc, t('webClicksUnknown')));
    return box;
  }
  if (view.kind === 'days') {
    box.append(clicksChart(doc, words, view.days, now), paragraph(doc, t('webStatsOlderServer')));
    return box;
  }
  const { stats } = view;
  const number = new Intl.NumberFormat(language);
  box.append(
    paragraph(doc, t('webStatsTotal', [number.format(stats.total), number.format(stats.bots)]), 'stats-total'),
    clicksChart(doc, words, stats.days ?? [], now),
  );
  box.append(stats.total === 0 ? paragraph(doc, t('webStatsNone')) : topLists(doc, stats, words));
  return box;
}
