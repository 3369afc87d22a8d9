// A visit's shapes: what a redirect hands over and what a store keeps. They sit here, below both
// the click rules (clicks.ts) and the visits feature (management/visits), which both use them.

/**
 * What a redirect hands the click counter for a visit: the raw header strings it already holds,
 * unparsed (parsing happens in the batch writer, off the redirect). `peer` and `forwardedFor` are
 * only given when a local country database is set, for its lookup; they are never stored.
 */
export interface RawVisit {
  referer: string | undefined;
  userAgent: string | undefined;
  /** The trusted proxy's country header (`COUNTRY_HEADER`), as sent. */
  country: string | string[] | undefined;
  /** `DNT: 1` or `Sec-GPC: 1`: the visit keeps only its time. */
  private: boolean;
  peer?: string | undefined;
  forwardedFor?: string | string[] | undefined;
}

/** A visit as a store keeps it: nothing that identifies a person (no address, ever). */
export interface VisitRow {
  codeKey: string;
  /** Epoch seconds. */
  at: number;
  /** The referrer's host, `direct` when none, null when withheld (DNT/GPC). */
  referrer: string | null;
  /** ISO 3166-1 alpha-2, or null. */
  country: string | null;
  /** The User-Agent cut to 256 characters, or null. */
  userAgent: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  bot: boolean;
}

/** What a visit keeps of where it came from, as the API's visits and a webhook's clicks tell it. */
export type VisitDetails = Pick<VisitRow, 'referrer' | 'country' | 'browser' | 'os' | 'device' | 'bot'>;

/**
 * A visit's facts in the order every answer lists them (the visits API, `link.clicked`): never the
 * User-Agent itself, and never an address (a visit has none).
 */
export const visitDetails = (visit: VisitDetails): VisitDetails => ({
  referrer: visit.referrer,
  country: visit.country,
  browser: visit.browser,
  os: visit.os,
  device: visit.device,
  bot: visit.bot,
});
