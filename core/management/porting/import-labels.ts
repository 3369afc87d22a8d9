import type { Link } from '../../store/link-store.js';
import { MAX_TAGS, MAX_TITLE_LENGTH, tagKey } from '../links/link-labels.js';

const TAG = /^[\p{L}\p{Nd}_-]{1,32}$/u;

/**
 * Tags as another shortener's file spells them: a list, or one cell of comma-separated names
 * (Shlink's and Dub's CSV, Linklet's own CSV).
 */
export function tagsOfCell(cell: string | undefined): string[] | undefined {
  return cell === undefined ? undefined : cell.split(',');
}

/**
 * The title and tags an import row carries, made to fit Linklet's rules rather than refused: a
 * link is worth importing without them. A title is cut to 200 characters; a tag's spaces become
 * `-` (as Shlink does), a tag that still breaks the rule is left out, and only the first 10 stay.
 */
export function importedLabels(title: unknown, tags: unknown): Pick<Link, 'title' | 'tags'> {
  const labels: Pick<Link, 'title' | 'tags'> = {};
  if (typeof title === 'string') {
    const trimmed = title.normalize('NFC').trim();
    // Cut by code points, never inside a surrogate pair (half an emoji is stored as U+FFFD),
    // and trimmed again, so the title is exactly what `parseTitle` would keep if sent back.
    if (trimmed !== '') labels.title = [...trimmed].slice(0, MAX_TITLE_LENGTH).join('').trimEnd();
  }
  if (Array.isArray(tags)) {
    const kept: string[] = [];
    for (const tag of tags) {
      if (typeof tag !== 'string') continue;
      const key = tagKey(tag.trim().replace(/\s+/g, '-'));
      if (TAG.test(key) && !kept.includes(key)) kept.push(key);
    }
    if (kept.length > 0) labels.tags = kept.slice(0, MAX_TAGS);
  }
  return labels;
}
