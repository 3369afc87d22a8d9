import { invalid } from '../../http/errors.js';
import type { LinkManagementStore, OwnerScope } from '../../store/link-management-store.js';
import { MAX_TAG_LENGTH, parseTagFilter, tagKey } from './link-labels.js';

/**
 * One tag named by a request (a path segment, a body field): a string by the tag rule, as its
 * stored key, or a 400 naming `field` that says what a tag may be.
 */
export function parseTagName(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(`${field} must be a tag, such as "work".`);
  try {
    return parseTagFilter(value);
  } catch {
    throw invalid(
      `${field} must be one tag: 1 to ${MAX_TAG_LENGTH} letters, digits, - or _ (no spaces), such as "work"; ${JSON.stringify(value.slice(0, 40))} is not.`,
    );
  }
}

/**
 * Renames a tag key on every link in scope (`renameTag`), answering how many links carry the new
 * name from it. The same name (keys compare case-insensitively, so `Work` is `work`) changes no
 * link: nothing to sync, and the count is of the links that carry it.
 */
export async function renameTagInScope(
  store: Pick<LinkManagementStore, 'renameTag' | 'listTags'>,
  scope: OwnerScope,
  from: string,
  to: string,
  now: number,
): Promise<number> {
  if (tagKey(from) !== tagKey(to)) return store.renameTag(scope, from, to, now);
  return (await store.listTags(scope)).find((tag) => tag.tag === from)?.links ?? 0;
}
