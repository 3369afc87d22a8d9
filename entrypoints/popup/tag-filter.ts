import { language, t } from '../../extension/i18n.js';

/** The popup's "Tag" select: the tags the history's links carry, or every link. */
export interface TagFilter {
  /** The chosen tag, or '' for every link. */
  value(): string;
  /** Offers `tags` (the history's, as the background lists them), keeping the chosen one. */
  fill(tags: readonly string[]): void;
  /** Chooses `tag` (its chip was pressed), as if picked in the select. */
  choose(tag: string): void;
}

/**
 * Sets up the tag select beside the search. It offers the tags people already gave their links
 * (on the server, in the web app), so they pick one rather than guess its spelling; with no
 * tagged link it stays hidden, as a select with only "all tags" would say nothing.
 */
export function setUpTagFilter(select: HTMLSelectElement, box: HTMLElement, onChange: () => void): TagFilter {
  select.addEventListener('change', onChange);
  const fill = (tags: readonly string[]) => {
    const chosen = select.value;
    const all = new Set(tags);
    if (chosen !== '') all.add(chosen);
    select.replaceChildren(
      new Option(t('tagFilterAll'), ''),
      ...[...all].sort(new Intl.Collator(language()).compare).map((tag) => new Option(tag, tag)),
    );
    select.value = chosen;
    box.hidden = all.size === 0;
  };
  fill([]);
  return {
    value: () => select.value,
    fill,
    choose(tag) {
      if (![...select.options].some((option) => option.value === tag)) fill([...optionTags(select), tag]);
      select.value = tag;
      box.hidden = false;
      onChange();
      select.focus();
    },
  };
}

const optionTags = (select: HTMLSelectElement) =>
  [...select.options].map((option) => option.value).filter((value) => value !== '');
