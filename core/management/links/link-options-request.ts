import { invalid } from '../../http/errors.js';
import { EXPIRE_DURATIONS, type ExpireDuration, expiryFor } from '../../rules/expiry.js';
import type { LinkPatch } from '../../store/link-management-store.js';
import { parseTags, parseTitle } from './link-labels.js';

/** A v1 create's title and tags, once checked; absent when not given. */
export interface LinkLabels {
  title?: string;
  tags?: string[];
}

const fieldsOf = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/**
 * The title and tags of a v1 create (`POST /api/v1/shorten`). As with the create's other
 * optional fields, `null` or `""` counts as not given. The legacy `/api.php` never reads them.
 */
export function parseCreateLabels(body: unknown): LinkLabels {
  const fields = fieldsOf(body);
  const labels: LinkLabels = {};
  if (fields.title !== undefined && fields.title !== '') {
    const title = parseTitle(fields.title);
    if (title !== null) labels.title = title;
  }
  if (fields.tags !== undefined && fields.tags !== '') {
    const tags = parseTags(fields.tags);
    if (tags.length > 0) labels.tags = tags;
  }
  return labels;
}

/**
 * The link options of `PATCH /api/v1/links/{code}`: `title` (`null` or `""` removes
 * it), `tags` (the whole list; `[]` or `null` removes them) and `expire_duration` (renew: the
 * expiry becomes now plus that duration, for an expired link too). Fields not sent are left out.
 */
export function parseLinkOptionsPatch(body: unknown, now: number): Pick<LinkPatch, 'title' | 'tags' | 'expiresAt'> {
  const fields = fieldsOf(body);
  const patch: Pick<LinkPatch, 'title' | 'tags' | 'expiresAt'> = {};
  if ('title' in fields) patch.title = parseTitle(fields.title);
  if ('tags' in fields) patch.tags = parseTags(fields.tags);
  if ('expire_duration' in fields) {
    const duration = fields.expire_duration;
    if (typeof duration !== 'string' || !(EXPIRE_DURATIONS as readonly string[]).includes(duration)) {
      throw invalid(
        `expire_duration must be one of ${EXPIRE_DURATIONS.join(', ')}; the link then expires that long from now.`,
      );
    }
    patch.expiresAt = expiryFor(duration as ExpireDuration, now);
  }
  return patch;
}

/**
 * A v1 create's answer with the title and tags the link was made with; a create without them
 * answers exactly as before.
 */
export function withLabels<E extends { data: object }>(envelope: E, link: LinkLabels): E {
  if (link.title !== undefined) Object.assign(envelope.data, { title: link.title });
  if (link.tags !== undefined) Object.assign(envelope.data, { tags: [...link.tags] });
  return envelope;
}
