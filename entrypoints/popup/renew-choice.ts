import { EXPIRE_DURATIONS, type ExpireDuration } from '../../core/rules/expiry.js';
import { t } from '../../extension/i18n.js';
import { expireLabel } from '../../ui/expire-label.js';

/**
 * The "how long" select next to a history entry's Renew button (24 hours … 1 month, one week
 * chosen), named after its link for a screen reader. Renew reads it back with `chosenRenewal`.
 */
export function renewSelect(linkName: string): HTMLSelectElement {
  const select = document.createElement('select');
  select.className = 'renew-duration';
  select.setAttribute('aria-label', `${t('renewLabel')}: ${linkName}`);
  select.append(...EXPIRE_DURATIONS.map((value) => new Option(expireLabel(t, value), value, false, value === '1week')));
  return select;
}

/** The duration chosen beside a Renew button (one week if the select is missing). */
export function chosenRenewal(button: HTMLElement): ExpireDuration {
  const select = button.closest('.history-item')?.querySelector<HTMLSelectElement>('select.renew-duration');
  const value = select?.value as ExpireDuration | undefined;
  return value && (EXPIRE_DURATIONS as readonly string[]).includes(value) ? value : '1week';
}

/**
 * A synced link's title and tags under its URLs (nothing for a link without them). A tag chip is
 * a button: pressing it lists only the links with that tag.
 */
export function entryLabels(
  title: string | undefined,
  tags: readonly string[] | undefined,
  onTag: (tag: string) => void = () => undefined,
): HTMLElement | undefined {
  if (!title && !tags?.length) return undefined;
  const box = document.createElement('div');
  box.className = 'entry-labels';
  if (title) {
    const line = document.createElement('div');
    line.className = 'link-title';
    line.textContent = title;
    line.title = title;
    box.append(line);
  }
  if (tags?.length) {
    const list = document.createElement('ul');
    list.className = 'tag-chips';
    list.setAttribute('aria-label', t('linkTagsList'));
    for (const tag of tags) {
      const chip = document.createElement('button');
      chip.type = 'button';
      chip.className = 'tag-chip';
      chip.textContent = tag;
      chip.title = t('tagChipTitle', [tag]);
      chip.addEventListener('click', () => onTag(tag));
      const item = document.createElement('li');
      item.append(chip);
      list.append(item);
    }
    box.append(list);
  }
  return box;
}
