import { toLinkView } from '../management/links/link-view.js';
import { formatIsoDate } from '../rules/dates.js';
import { type VisitDetails, visitDetails } from '../rules/visit-rows.js';
import { shortUrlFor } from '../shorten/envelopes.js';
import type { Link } from '../store/link-store.js';
import type { DeliveryType } from './webhook-store.js';

/** A delivery's body as Standard Webhooks shapes it: `{"type", "timestamp", "data"}`. */
export function deliveryBody(type: DeliveryType, at: number, data: object): string {
  return deliveryBodyOfJson(type, at, JSON.stringify(data));
}

/** The same body around `data` already in JSON (a second's clicks, joined as they were made). */
export function deliveryBodyOfJson(type: DeliveryType, at: number, dataJson: string): string {
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(formatIsoDate(at))},"data":${dataJson}}`;
}

/** `link.created` and `link.updated`: the link as the management API shows it. */
export const linkEventData = (link: Link, baseUrl: string, now: number) => toLinkView(link, baseUrl, now);

/** `link.deleted`: which link, and when. */
export const deletedLinkData = (link: Pick<Link, 'code'>, baseUrl: string, at: number) => ({
  code: link.code,
  short_url: `${shortUrlFor(baseUrl, link.code)}/`,
  deleted_at: formatIsoDate(at),
});

/** The most clicks one `link.clicked` delivery carries (about 100 KiB of JSON); more make more deliveries. */
export const CLICKS_PER_DELIVERY = 500;

/**
 * One click in a `link.clicked` delivery's `data.clicks`: what a visit keeps (referrer host,
 * country, browser, OS, device type, bot) and never the visitor's address; a visit that asked
 * not to be tracked (DNT, GPC), or one whose details are not kept (`VISITS=off`), carries its
 * time alone. A delivery carries the clicks of up to a second, so that one signed POST, not one
 * per click, is what a busy link costs its server.
 */
export function clickEventData(
  link: Pick<Link, 'code'>,
  baseUrl: string,
  atMs: number,
  visit: VisitDetails | undefined,
  tracked: boolean,
) {
  const base = { ...clickedLink(link, baseUrl), clicked_at: formatIsoDate(atMs) };
  if (visit === undefined || !tracked) return base;
  return { ...base, ...visitDetails(visit) };
}

/** What a click says of its link. */
export const clickedLink = (link: Pick<Link, 'code'>, baseUrl: string) => ({
  code: link.code,
  short_url: `${shortUrlFor(baseUrl, link.code)}/`,
});
