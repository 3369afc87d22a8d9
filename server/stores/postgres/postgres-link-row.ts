import { tagsFromText } from '../../../core/management/links/link-labels.js';
import { rulesFromText } from '../../../core/store/link-rule-fields.js';
import type { Link } from '../../../core/store/link-store.js';
import { toMs } from './postgres-sql.js';

/** A link's columns as `LinkRow` names them. */
export const LINK_COLUMNS = `code_key, code, original_url, ${toMs('created_at')} AS created_at,
  ${toMs('expires_at')} AS expires_at, owner_id, ${toMs('updated_at')} AS updated_at, disabled, password_hash, title, tags,
  redirect_rules, max_visits, ${toMs('valid_since')} AS valid_since, forward_query`;

/** The link columns and its clicks, for the management reads (redirects do not read clicks). */
export const MANAGED_LINK_COLUMNS = `${LINK_COLUMNS}, clicks`;

/** A link's row as pg gives it (bigints as strings). */
export interface LinkRow {
  code_key: string;
  code: string;
  original_url: string;
  created_at: string;
  expires_at: string;
  owner_id: string | null;
  updated_at: string;
  disabled: boolean;
  password_hash: string | null;
  title: string | null;
  tags: string | null;
  redirect_rules: string | null;
  max_visits: string | null;
  valid_since: string | null;
  forward_query: boolean;
  /** Only in management reads (`MANAGED_LINK_COLUMNS`). */
  clicks?: string;
}

/** The row as a `Link`, its optional fields left out at their defaults. */
export function linkFromRow(row: LinkRow): Link {
  const link: Link = {
    code: row.code,
    codeKey: row.code_key,
    originalUrl: row.original_url,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
  if (row.owner_id !== null) link.ownerId = Number(row.owner_id);
  if (Number(row.updated_at) !== link.createdAt) link.updatedAt = Number(row.updated_at);
  if (row.disabled) link.disabled = true;
  if (row.password_hash !== null) link.passwordHash = row.password_hash;
  if (row.clicks !== undefined && row.clicks !== '0') link.clicks = Number(row.clicks);
  if (row.title !== null) link.title = row.title;
  if (row.tags !== null) link.tags = tagsFromText(row.tags);
  if (row.redirect_rules !== null) link.redirectRules = rulesFromText(row.redirect_rules);
  if (row.max_visits !== null) link.maxVisits = Number(row.max_visits);
  if (row.valid_since !== null) link.validSince = Number(row.valid_since);
  if (row.forward_query) link.forwardQuery = true;
  return link;
}
