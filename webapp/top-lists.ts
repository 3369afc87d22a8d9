import type { MessageKey } from '../ui/i18n.js';
import type { Words } from './clicks-chart.js';
import type { LinkStats, NamedCount } from './link-stats.js';

type Dimension = 'referrers' | 'countries' | 'browsers' | 'os' | 'devices';

const HEADINGS = {
  referrers: 'webStatsReferrers',
  countries: 'webStatsCountries',
  browsers: 'webStatsBrowsers',
  os: 'webStatsOs',
  devices: 'webStatsDevices',
} as const satisfies Record<Dimension, MessageKey>;

const DEVICES: Record<string, MessageKey> = {
  desktop: 'webDeviceDesktop',
  mobile: 'webDeviceMobile',
  tablet: 'webDeviceTablet',
  tv: 'webDeviceTv',
};

/**
 * A name as the stats carry it, in words: `direct` (no referrer), `other` (past the top 10) and
 * an empty or unknown value are said in the page's language, a country code becomes the
 * country's name, device types are translated; hosts, browsers and systems are names already.
 */
export function statName(dimension: Dimension, name: string, words: Words): string {
  const { t, language } = words;
  const lower = name.toLowerCase();
  if (lower === 'other') return t('webStatsOther');
  if (name === '' || lower === 'unknown' || lower === 'none') return t('webStatsUnknown');
  if (dimension === 'referrers' && lower === 'direct') return t('webStatsDirect');
  if (dimension === 'devices' && DEVICES[lower]) return t(DEVICES[lower]);
  if (dimension === 'countries' && /^[a-z]{2}$/i.test(name)) {
    try {
      return new Intl.DisplayNames([language], { type: 'region' }).of(name.toUpperCase()) ?? name;
    } catch {
      return name;
    }
  }
  return name;
}

function topList(doc: Document, dimension: Dimension, rows: NamedCount[], words: Words): HTMLElement {
  const section = doc.createElement('section');
  section.className = 'top-list';
  const heading = doc.createElement('h4');
  heading.textContent = words.t(HEADINGS[dimension]);
  section.append(heading);
  if (rows.length === 0) {
    const none = doc.createElement('p');
    none.className = 'muted';
    none.textContent = '—';
    section.append(none);
    return section;
  }
  const most = Math.max(1, ...rows.map((row) => row.clicks));
  const number = new Intl.NumberFormat(words.language);
  const list = doc.createElement('ol');
  for (const row of rows) {
    const item = doc.createElement('li');
    const name = doc.createElement('span');
    name.className = 'top-name';
    name.textContent = statName(dimension, row.name, words);
    name.title = name.textContent; // cut with an ellipsis on a phone: the whole name on hover
    const count = doc.createElement('span');
    count.className = 'top-count';
    count.textContent = number.format(row.clicks);
    // A bar's length through the CSSOM: the page's policy forbids style attributes, not this.
    const bar = doc.createElement('span');
    bar.className = 'top-bar';
    bar.setAttribute('aria-hidden', 'true');
    bar.style.width = `${Math.round((row.clicks / most) * 100)}%`;
    item.append(name, count, bar);
    list.append(item);
  }
  section.append(list);
  return section;
}

/** The five top lists of a link's stats, in one grid that folds into a column on a phone. */
export function topLists(doc: Document, stats: LinkStats, words: Words): HTMLElement {
  const grid = doc.createElement('div');
  grid.className = 'top-lists';
  for (const dimension of Object.keys(HEADINGS) as Dimension[]) {
    grid.append(topList(doc, dimension, stats[dimension] ?? [], words));
  }
  return grid;
}
