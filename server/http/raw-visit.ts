import type { IncomingMessage } from 'node:http';
import { asksNotToBeTracked, type RawVisit } from '../../core/management/visits/visits.js';

/** What a redirect hands over for visits: the country header's name, and whether the address is looked up. */
export interface VisitCapture {
  /** `COUNTRY_HEADER`, lower case (Node's header names are). */
  countryHeader?: string | undefined;
  /** A local country database is set: the peer and `X-Forwarded-For` go along for its lookup. */
  lookUpAddress?: boolean;
}

/**
 * The raw strings of a click's visit, as the request already holds them: one small object, no
 * parsing (that is the click counter's beat's, once per distinct value). The counter copies it
 * into its columns at once, so it dies young. The address goes along only for a country lookup
 * and is never stored.
 */
export function rawVisitOf(req: IncomingMessage, capture: VisitCapture): RawVisit {
  const { headers } = req;
  const visit: RawVisit = {
    referer: headers.referer,
    userAgent: headers['user-agent'],
    country: capture.countryHeader === undefined ? undefined : headers[capture.countryHeader],
    private: asksNotToBeTracked(headers.dnt as string | undefined, headers['sec-gpc'] as string | undefined),
  };
  if (capture.lookUpAddress) {
    visit.peer = req.socket.remoteAddress;
    visit.forwardedFor = headers['x-forwarded-for'];
  }
  return visit;
}
