import { tagsFromText } from '../../../core/management/links/link-labels.js';
import { rulesFromText } from '../../../core/store/link-rule-fields.js';
import type { Link } from '../../../core/store/link-store.js';

/** The columns of a link, in the order of `LinkRow`. */
export const LINK_COLUMNS =
  'code, original_url, created_at, expires_at, owner_id, updated_at, disabled, password_hash, title, tags, redirect_rules, max_visits, valid_since, forward_query';

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
  redirectRules: string | null,
  maxVisits: number | null,
  validSince: number | null,
  forwardQuery: number,
  clicks?: number,
];

/** The row as a `Link`, its optional fields left out at their defaults. */
export function linkFromRow(codeKey: string, row: LinkRow): Link {
  const [code, originalUrl, createdAt, expiresAt, ownerId, updatedAt, disabled, passwordHash, title, tags] = row;
  // Mostly the same text; one string then serves both (links may sit in the cache by the 100k).
  const link: Link = { code: code === codeKey ? codeKey : code, codeKey, originalUrl, createdAt, expiresAt };
  if (ownerId !== null) link.ownerId = ownerId;
  if (updatedAt !== createdAt) link.updatedAt = updatedAt;
  if (disabled) link.disabled = true;
  const clicks = row[14];
  if (clicks) link.clicks = clicks;
  if (passwordHash !== null) link.passwordHash = passwordHash;
  if (title !== null) link.title = title;
  if (tags !== null) link.tags = tagsFromText(tags);
  if (row[10] !== null) link.redirectRules = rulesFromText(row[10]);
  if (row[11] !== null) link.maxVisits = row[11];
  if (row[12] !== null) link.validSince = row[12];
  if (row[13]) link.forwardQuery = true;
  return link;
}
