import { tagsFromText } from '../../../core/management/links/link-labels.js';
import type { Link } from '../../../core/store/link-store.js';

/** The columns of a link, in the order of `LinkRow`. */
export const LINK_COLUMNS =
  'code, original_url, created_at, expires_at, owner_id, updated_at, disabled, password_hash, title, tags';

/**
 * A link's total clicks (NULL for none) in a query over `links`: kept in a table of their own,
 * under the link's id (see schema 9), so a retaken code's total is never its previous holder's.
 */
export const CLICKS_OF_LINK = '(SELECT t.clicks FROM link_click_totals AS t WHERE t.link_id = links.id)';

/** The link columns and its clicks, for the management reads (redirects do not read clicks). */
export const MANAGED_LINK_COLUMNS = `${LINK_COLUMNS}, ${CLICKS_OF_LINK}`;

/** A link's row as better-sqlite3 gives it in raw mode (an array: cheaper than an object). */
export type LinkRow = [
  code: string,
  originalUrl: string,
  createdAt: number,
  expiresAt: number,
  ownerId: number | null,
  updatedAt: number,
  disabled: number,
  passwordHash: string | null,
  title: string | null,
  tags: string | null,
  clicks?: number,
];

/** The row as a `Link`, its optional fields left out at their defaults. */
export function linkFromRow(codeKey: string, row: LinkRow): Link {
  const [code, originalUrl, createdAt, expiresAt, ownerId, updatedAt, disabled, passwordHash, title, tags, clicks] =
    row;
  // Mostly the same text; one string then serves both (links may sit in the cache by the 100k).
  const link: Link = { code: code === codeKey ? codeKey : code, codeKey, originalUrl, createdAt, expiresAt };
  if (ownerId !== null) link.ownerId = ownerId;
  if (updatedAt !== createdAt) link.updatedAt = updatedAt;
  if (disabled) link.disabled = true;
  if (clicks) link.clicks = clicks;
  if (passwordHash !== null) link.passwordHash = passwordHash;
  if (title !== null) link.title = title;
  if (tags !== null) link.tags = tagsFromText(tags);
  return link;
}
