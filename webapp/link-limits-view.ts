import { h } from '../ui/dom.js';
import { formatDateTime } from '../ui/format-date.js';
import { plural } from '../ui/plural.js';
import { language, t } from './i18n.js';
import type { RulesLinkView } from './rule-shapes.js';

/**
 * The badges by a link's status that say it does not simply redirect: it has rules ("2 rules"),
 * a visit limit with its use ("12 of 100 visits") or a start still to come ("Starts 1 Dec").
 * People see at a glance why a link sends someone elsewhere or does not open yet.
 */
export function linkLimitsView(link: RulesLinkView, now: number = Date.now()): HTMLElement[] {
  const badges: HTMLElement[] = [];
  const rules = link.redirect_rules?.length ?? 0;
  if (rules > 0) {
    badges.push(
      h(
        'span',
        { class: 'badge rules', title: t('badgeRulesTitle') },
        plural(t, language(), rules, { one: 'badgeRulesOne', other: 'badgeRulesOther' }),
      ),
    );
  }
  if (typeof link.max_visits === 'number') {
    const format = new Intl.NumberFormat(language()).format;
    const used = Math.min(link.clicks ?? 0, link.max_visits);
    badges.push(
      h(
        'span',
        { class: 'badge visits', 'data-used-up': String(used >= link.max_visits) },
        t('badgeVisits', [format(used), format(link.max_visits)]),
      ),
    );
  }
  const since = link.valid_since ? Date.parse(link.valid_since) : Number.NaN;
  if (since > now) {
    badges.push(h('span', { class: 'badge starts' }, t('badgeStarts', [formatDateTime(since, language())])));
  }
  return badges;
}
