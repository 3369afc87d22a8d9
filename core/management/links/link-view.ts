import { CLICK_DAYS_SHOWN, dayOf, formatDay, type LinkClicks } from '../../rules/clicks.js';
import { formatIsoDate } from '../../rules/dates.js';
import { shortUrlFor } from '../../shorten/envelopes.js';
import { type LinkChange, type LinkStatus, statusOf } from '../../store/link-management-store.js';
import type { Link } from '../../store/link-store.js';
import { type LinkRulesView, toLinkRulesView } from './link-rules-view.js';

/** A link as the management API shows it (v1 dialect: ISO dates, `short_url` with its `/`). */
export interface LinkView extends LinkRulesView {
  code: string;
  short_url: string;
  original_url: string;
  created_at: string;
  expiration_date: string;
  status: LinkStatus;
  clicks: number;
  updated_at: string;
  /** Whether the short URL asks for a password; the password itself is never shown. */
  password_protected: boolean;
  /** Its owner's name for it, or null. */
  title: string | null;
  /** Its tags (lower case), none as []. */
  tags: string[];
}

/** A deletion in a `changed_since` listing. */
export interface DeletedLinkView {
  code: string;
  deleted: true;
  updated_at: string;
}

/** A link with its last 30 UTC days of clicks, as `GET /api/v1/links/{code}` shows it. */
export interface LinkDetailView extends LinkView {
  clicks_by_day: Array<{ day: string; clicks: number }>;
}

/** The management API's view of a link at `now` (its clicks as the store last read them). */
export function toLinkView(link: Link, baseUrl: string, now: number): LinkView {
  return {
    code: link.code,
    short_url: `${shortUrlFor(baseUrl, link.code)}/`,
    original_url: link.originalUrl,
    created_at: formatIsoDate(link.createdAt),
    expiration_date: formatIsoDate(link.expiresAt),
    status: statusOf(link, now),
    clicks: link.clicks ?? 0,
    updated_at: formatIsoDate(link.updatedAt ?? link.createdAt),
    password_protected: link.passwordHash !== undefined || link.passwordProtected === true,
    title: link.title ?? null,
    tags: link.tags ? [...link.tags] : [],
    ...toLinkRulesView(link),
  };
}

/**
 * The link with its clicks read fresh: the total, and every one of the last `CLICK_DAYS_SHOWN`
 * UTC days up to `now`'s, oldest first, days without clicks as 0 (a chart needs no gaps filled).
 */
export function toLinkDetailView(link: Link, clicks: LinkClicks, baseUrl: string, now: number): LinkDetailView {
  const today = dayOf(now);
  const byDay = new Map(clicks.days.map(({ day, clicks }) => [day, clicks]));
  const days = Array.from({ length: CLICK_DAYS_SHOWN }, (_, i) => today - CLICK_DAYS_SHOWN + 1 + i);
  return {
    ...toLinkView({ ...link, clicks: clicks.total }, baseUrl, now),
    clicks_by_day: days.map((day) => ({ day: formatDay(day), clicks: byDay.get(day) ?? 0 })),
  };
}

/** A change as a `changed_since` listing shows it: the link, or its deletion. */
export function toChangeView(change: LinkChange, baseUrl: string, now: number): LinkView | DeletedLinkView {
  if (change.kind === 'link') return toLinkView(change.link, baseUrl, now);
  return { code: change.tombstone.code, deleted: true, updated_at: formatIsoDate(change.tombstone.deletedAt) };
}
