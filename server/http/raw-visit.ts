import type { IncomingMessage } from 'node:http';
import { asksNotToBeTracked, type RawVisit } from '../../core/management/visits/visits.js';
import type { RedirectHeaders } from './redirect-headers.js';

/** What a redirect hands over for visits: the country header's name, and whether the address is looked up. */
export interface VisitCapture {
  /** `COUNTRY_HEADER`, lower case (Node's header names are). */
  countryHeader?: string | undefined;
  /** A local country database is set: the peer and `X-Forwarded-For` go along for its lookup. */
  lookUpAddress?: boolean;
}

/**
 * The raw strings of a click's visit, as the redirect read them (`redirectHeadersOf`, the
 * country header's value included): one small object, no parsing (that is the click counter's
 * beat's, once per distinct value). The counter copies it into its columns at once, so it dies
 * young. The address goes along only for a country lookup and is never stored.
 */
export function rawVisitOf(
  headers: RedirectHeaders,
  req: Pick<IncomingMessage, 'socket'>,
  capture: VisitCapture,
): RawVisit {
  const visit: RawVisit = {
    referer: headers.referer,
    userAgent: headers.userAgent,
    country: headers.country,
    private: asksNotToBeTracked(headers.dnt, headers.secGpc),
  };
  if (capture.lookUpAddress) {
    visit.peer = req.socket.remoteAddress;
    visit.forwardedFor = headers.forwardedFor;
  }
  return visit;
}
