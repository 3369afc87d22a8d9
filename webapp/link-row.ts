import type { LinkView } from '../core/management/links/link-view.js';
import { displayUrl } from '../ui/display-url.js';
import { h } from '../ui/dom.js';
import { formatDateTime } from '../ui/format-date.js';
import type { MessageKey } from '../ui/i18n.js';
import { lockIcon } from '../ui/lock-icon.js';
import { language, t } from './i18n.js';
import { linkLabelsView } from './link-labels-view.js';
import { linkLimitsView } from './link-limits-view.js';
import { shortUrlLink, targetText } from './link-text.js';
import type { RulesLinkView } from './rule-shapes.js';

export type RowAction = 'copy' | 'details' | 'disable' | 'enable' | 'renew' | 'delete';

const STATUS_LABELS = {
  active: 'webStatusActive',
  expired: 'webStatusExpired',
  disabled: 'webStatusDisabled',
} as const satisfies Record<LinkView['status'], MessageKey>;

/**
 * One link as a table row. The buttons' names are the plain verbs ("Copy", "Delete"), the same on
 * every row: the row (its short URL cell is the row header) tells which link they act on.
 * An expired link cannot be disabled (its short URL already says it expired): it offers Renew in
 * that place, which opens its details at the renewal. `onTag` narrows the list to a chip's tag.
 */
export function linkRow(
  link: LinkView,
  detailsId: string,
  onAction: (action: RowAction) => void,
  onTag: (tag: string) => void = () => {},
): HTMLTableRowElement {
  const button = (action: RowAction, label: string, extra: Record<string, string> = {}) => {
    const element = h('button', { type: 'button', 'data-action': action, ...extra }, label);
    element.addEventListener('click', () => onAction(action));
    return element;
  };
  const toggle =
    link.status === 'active'
      ? button('disable', t('webDisable'))
      : link.status === 'disabled'
        ? button('enable', t('webEnable'))
        : button('renew', t('renewButton'), { 'aria-controls': detailsId });
  const expiresAt = Date.parse(link.expiration_date);
  // A host that mixes scripts (a homograph) is shown in punycode, as the extension shows it.
  const target = displayUrl(link.original_url);
  // What differs stays in view: the code whole, the target's start and end (cut in its middle);
  // the whole texts are the tooltips and in the details.
  return h(
    'tr',
    { 'data-code': link.code },
    h(
      'th',
      { scope: 'row', class: 'short' },
      shortUrlLink(link.short_url, link.code),
      linkLabelsView(link, onTag),
      limitBadges(link),
    ),
    h('td', { class: 'target' }, targetText(target)),
    h(
      'td',
      { class: 'status' },
      h('span', { class: 'badge', 'data-status': link.status }, t(STATUS_LABELS[link.status])),
      link.password_protected
        ? h(
            'span',
            { class: 'badge lock', title: t('webPasswordProtected') },
            lockIcon(document),
            t('webPasswordBadge'),
          )
        : '',
    ),
    h(
      'td',
      { class: 'number clicks-cell', 'data-label': t('webColumnClicks') },
      typeof link.clicks === 'number' ? new Intl.NumberFormat(language()).format(link.clicks) : '—',
    ),
    h(
      'td',
      { class: 'expires', 'data-label': t('expiresLabel') },
      h('time', { datetime: link.expiration_date }, formatDateTime(expiresAt, language())),
    ),
    h(
      'td',
      { class: 'actions' },
      h(
        'div',
        { class: 'action-buttons' },
        button('copy', t('copy')),
        button('details', t('webDetails'), { 'aria-expanded': 'false', 'aria-controls': detailsId }),
        toggle,
        button('delete', t('delete'), { class: 'danger' }),
      ),
    ),
  );
}

/** The rules-and-limits badges under the short URL (not in the status cell, which stays narrow on a phone). */
function limitBadges(link: RulesLinkView): HTMLElement | '' {
  const badges = linkLimitsView(link);
  return badges.length === 0 ? '' : h('div', { class: 'link-limits' }, ...badges);
}
