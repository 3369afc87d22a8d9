import { formatIsoDate } from '../dates.js';
import { shortUrlFor } from '../envelopes.js';
import { type LinkChange, type LinkStatus, statusOf } from '../link-management-store.js';
import type { Link } from '../link-store.js';

/** A link as the management API shows it (v1 dialect: ISO dates, `short_url` with its `/`). */
export interface LinkView {
  code: string;
  short_url: string;
  original_url: string;
  created_at: string;
  expiration_date: string;
  status: LinkStatus;
  clicks: number;
  updated_at: string;
}

/** A deletion in a `changed_since` listing. */
export interface DeletedLinkView {
  code: string;
  deleted: true;
  updated_at: string;
}

/** The management API's view of a link at `now`. Clicks are not counted yet: always 0. */
export function toLinkView(link: Link, baseUrl: string, now: number): LinkView {
  return {
    code: link.code,
    short_url: `${shortUrlFor(baseUrl, link.code)}/`,
    original_url: link.originalUrl,
    created_at: formatIsoDate(link.createdAt),
    expiration_date: formatIsoDate(link.expiresAt),
    status: statusOf(link, now),
    clicks: 0,
    updated_at: formatIsoDate(link.updatedAt ?? link.createdAt),
  };
}

/** A change as a `changed_since` listing shows it: the link, or its deletion. */
export function toChangeView(change: LinkChange, baseUrl: string, now: number): LinkView | DeletedLinkView {
  if (change.kind === 'link') return toLinkView(change.link, baseUrl, now);
  return { code: change.tombstone.code, deleted: true, updated_at: formatIsoDate(change.tombstone.deletedAt) };
}
