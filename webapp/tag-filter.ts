import { h } from '../ui/dom.js';
import { callApi } from './api.js';
import { language, t } from './i18n.js';

/** One tag as `GET /api/v1/tags` counts it. */
interface TagCount {
  tag: string;
  links: number;
  clicks: number;
}

/** The tag select above the list, filled from the owner's own tags. */
export interface TagFilter {
  /** The chosen tag, or '' for every link. */
  value(): string;
  /** Fills the choices again from the server (after a sign-in or a save), keeping the chosen tag. */
  refresh(key: string): Promise<void>;
  /** Chooses `tag` (a chip was pressed), as if picked in the select. */
  choose(tag: string): void;
  /** How many links carry `tag`, as the server last counted them (undefined: not listed). */
  links(tag: string): number | undefined;
}

/**
 * The "Tag" select that narrows the list with `tag=`: it lists the tags the owner uses (from
 * `GET /api/v1/tags`), so people pick one rather than guess the spelling. A server without tags
 * leaves only "all tags"; a failure to list them is not worth an error over the list.
 */
export function setUpTagFilter(select: HTMLSelectElement, onChange: () => void): TagFilter {
  const fill = (tags: string[]) => {
    const chosen = select.value;
    const all = new Set(tags);
    if (chosen !== '') all.add(chosen); // a chip's tag stays chosen while the list is reloaded
    select.replaceChildren(
      h('option', { value: '' }, t('tagFilterAll')),
      ...[...all].sort(new Intl.Collator(language()).compare).map((tag) => h('option', { value: tag }, tag)),
    );
    select.value = chosen;
  };
  let counts = new Map<string, number>();
  select.addEventListener('change', onChange);
  fill([]);
  return {
    value: () => select.value,
    async refresh(key) {
      try {
        const { data } = await callApi<{ tags: TagCount[] }>('api/v1/tags', { key });
        counts = new Map(data.tags.map((entry) => [entry.tag, entry.links]));
        fill(data.tags.map((entry) => entry.tag));
      } catch {
        counts = new Map();
        fill([]);
      }
    },
    choose(tag) {
      if (![...select.options].some((option) => option.value === tag)) select.append(h('option', { value: tag }, tag));
      select.value = tag;
      onChange();
    },
    links: (tag) => counts.get(tag),
  };
}
