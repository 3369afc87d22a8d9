import { toLinkView } from '../management/links/link-view.js';
import type { VisitRow } from '../management/visits/visits.js';
import { formatIsoDate } from '../rules/dates.js';
import { shortUrlFor } from '../shorten/envelopes.js';
import type { Link } from '../store/link-store.js';
import type { DeliveryType } from './webhook-store.js';

/** A delivery's body as Standard Webhooks shapes it: `{"type", "timestamp", "data"}`. */
export function deliveryBody(type: DeliveryType, at: number, data: object): string {
  return JSON.stringify({ type, timestamp: formatIsoDate(at), data });
}

/** `link.created` and `link.updated`: the link as the management API shows it. */
export const linkEventData = (link: Link, baseUrl: string, now: number) => toLinkView(link, baseUrl, now);

/** `link.deleted`: which link, and when. */
export const deletedLinkData = (link: Pick<Link, 'code'>, baseUrl: string, at: number) => ({
  code: link.code,
  short_url: `${shortUrlFor(baseUrl, link.code)}/`,
  deleted_at: formatIsoDate(at),
});

/**
 * `link.clicked`: what a visit keeps (referrer host, country, browser, OS, device type, bot) and
 * never the visitor's address; a visit that asked not to be tracked (DNT, GPC), or one whose
 * details are not kept (`VISITS=off`), carries its time alone.
 */
export function clickEventData(
  link: Pick<Link, 'code'>,
  baseUrl: string,
  atMs: number,
  visit: VisitRow | undefined,
  tracked: boolean,
) {
  const base = { code: link.code, short_url: `${shortUrlFor(baseUrl, link.code)}/`, clicked_at: formatIsoDate(atMs) };
  if (visit === undefined || !tracked) return base;
  return {
    ...base,
    referrer: visit.referrer,
    country: visit.country,
    browser: visit.browser,
    os: visit.os,
    device: visit.device,
    bot: visit.bot,
  };
}
