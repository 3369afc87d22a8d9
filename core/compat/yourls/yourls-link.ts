import { codeKey, isValidCode } from '../../rules/code.js';
import { formatLegacyDate } from '../../rules/dates.js';
import { trimTrailingSlashes } from '../../rules/url.js';
import { shortUrlFor } from '../../shorten/envelopes.js';
import type { Link } from '../../store/link-store.js';

/**
 * The `ip` YOURLS records for each link. Linklet never stores a client's address, so every link
 * says the unspecified address: a valid IP for clients that parse it, and nobody's.
 */
export const UNKNOWN_IP = '0.0.0.0';

/**
 * A link's title as YOURLS gives it: its own, or the long URL, which is what YOURLS stores when it
 * cannot fetch a page's title (Linklet never fetches pages).
 */
export function titleOf(link: Link): string {
  return link.title ?? link.originalUrl;
}

/** A date as YOURLS writes its `timestamp` column: `YYYY-MM-DD HH:MM:SS` in the server's zone. */
export function yourlsDate(epochMs: number, timeZone: string): string {
  return formatLegacyDate(epochMs, timeZone);
}

/** A link as YOURLS's stats list it (`yourls_get_stats`, `yourls_get_keyword_stats`). */
export function statsLinkOf(link: Link, baseUrl: string, timeZone: string) {
  return {
    shorturl: shortUrlFor(baseUrl, link.code),
    url: link.originalUrl,
    title: titleOf(link),
    timestamp: yourlsDate(link.createdAt, timeZone),
    ip: UNKNOWN_IP,
    clicks: link.clicks ?? 0,
  };
}

/**
 * The code key a `shorturl` field names, as YOURLS accepts it: a keyword (`abc`) or this
 * server's short URL of it (`https://sho.rt/abc`, with or without a trailing `/`, percent-encoded
 * or not). Undefined for a short URL of another host or a word that cannot be a code.
 */
export function codeKeyOfShortUrl(shorturl: string, baseUrl: string): string | undefined {
  let keyword = shorturl.trim();
  if (/^https?:\/\//i.test(keyword)) {
    const base = new URL(trimTrailingSlashes(baseUrl));
    let given: URL;
    try {
      given = new URL(keyword);
    } catch {
      return undefined;
    }
    if (given.host !== base.host) return undefined;
    const basePath = base.pathname === '/' ? '' : base.pathname;
    if (!given.pathname.startsWith(`${basePath}/`)) return undefined;
    keyword = given.pathname.slice(basePath.length + 1);
  }
  keyword = keyword.replace(/\/$/, '');
  try {
    keyword = decodeURIComponent(keyword);
  } catch {
    return undefined;
  }
  return isValidCode(keyword) ? codeKey(keyword) : undefined;
}
