import type { LinkView } from '../core/management/links/link-view.js';
import { h } from '../ui/dom.js';
import { t } from './i18n.js';

/**
 * A link's title (whole: like the code, it tells links apart) and its tags as chips under
 * its short URL in the list. A chip is a button: pressing it narrows the list to that tag, the
 * quickest way from "what is this tag" to every link that has it. Nothing when there is neither.
 */
export function linkLabelsView(link: LinkView, onTag: (tag: string) => void): HTMLElement | '' {
  const tags = link.tags ?? [];
  if (!link.title && tags.length === 0) return '';
  const title = link.title ? h('span', { class: 'link-title', title: link.title }, link.title) : '';
  const chips =
    tags.length === 0
      ? ''
      : h(
          'ul',
          { class: 'tag-chips', 'aria-label': t('linkTagsList') },
          ...tags.map((tag) => {
            const chip = h('button', { type: 'button', class: 'tag-chip', title: t('tagChipTitle', [tag]) }, tag);
            chip.addEventListener('click', () => onTag(tag));
            return h('li', {}, chip);
          }),
        );
  return h('div', { class: 'link-labels' }, title, chips);
}
