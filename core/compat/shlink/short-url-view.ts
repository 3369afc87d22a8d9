import { shortUrlFor } from '../../shorten/envelopes.js';
import type { Link } from '../../store/link-store.js';
import { formatShlinkDate } from './shlink-dates.js';

/** Human and bot visits as Shlink counts them. */
export interface VisitsSummary {
  total: number;
  nonBots: number;
  bots: number;
}

/**
 * A link's visits as Shlink's summary: Linklet's clicks are the people's visits (bots are
 * recognised and not counted as clicks) and its bot visits are counted apart, per day.
 */
export function visitsSummaryOf(clicks: number, bots: number): VisitsSummary {
  return { total: clicks + bots, nonBots: clicks, bots };
}

/**
 * A link as Shlink 4.x writes a short URL (`ShortUrl::toArray` with `shortUrl` first), member
 * for member: one domain (`null`, the default one), never crawlable; its start (`validSince`),
 * visit limit, query forwarding and whether it has redirect rules as the link has them. Its
 * `validUntil` is the link's real expiry: every Linklet link has one.
 */
export function toShortUrl(link: Link, baseUrl: string, bots = 0) {
  return {
    shortUrl: shortUrlFor(baseUrl, link.code),
    shortCode: link.code,
    longUrl: link.originalUrl,
    dateCreated: formatShlinkDate(link.createdAt),
    tags: link.tags ?? [],
    meta: {
      validSince: link.validSince === undefined ? null : formatShlinkDate(link.validSince),
      validUntil: formatShlinkDate(link.expiresAt),
      maxVisits: link.maxVisits ?? null,
    },
    domain: null,
    title: link.title ?? null,
    crawlable: false,
    forwardQuery: link.forwardQuery ?? false,
    visitsSummary: visitsSummaryOf(link.clicks ?? 0, bots),
    hasRedirectRules: (link.redirectRules?.length ?? 0) > 0,
  };
}

export type ShlinkShortUrl = ReturnType<typeof toShortUrl>;
