import { MAX_TAGS, MAX_TITLE_LENGTH, titleLength } from '../../core/management/links/link-labels.js';

const TAG = /^[\p{L}\p{Nd}_-]{1,32}$/u;

/**
 * A listed link's title and tags, as far as they keep the server's rules: a title of at most
 * 200 characters, at most 10 tags of the tag rule. A server from before titles (no fields) or one
 * that breaks the rules gives none, and the link itself still syncs.
 */
export function readRemoteLabels(fields: Record<string, unknown>): { title?: string; tags?: string[] } {
  const labels: { title?: string; tags?: string[] } = {};
  const { title, tags } = fields;
  if (typeof title === 'string' && title !== '' && titleLength(title) <= MAX_TITLE_LENGTH) labels.title = title;
  if (
    Array.isArray(tags) &&
    tags.length > 0 &&
    tags.length <= MAX_TAGS &&
    tags.every((tag) => typeof tag === 'string' && TAG.test(tag))
  ) {
    labels.tags = [...tags] as string[];
  }
  return labels;
}

/** An entry with the server's labels in place of its own (the server wins, as for the rest). */
export function withRemoteLabels<E extends { title?: string; tags?: string[] }>(
  entry: E,
  labels: { title?: string; tags?: string[] },
): E {
  const { title: _title, tags: _tags, ...rest } = entry;
  const next = { ...rest } as E;
  if (labels.title !== undefined) next.title = labels.title;
  if (labels.tags !== undefined) next.tags = labels.tags;
  return next;
}
