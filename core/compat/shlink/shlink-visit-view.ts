import type { StoredVisit } from '../../management/visits/visits.js';
import { formatShlinkDate } from './shlink-dates.js';

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** A country's English name, as Shlink's geolocation names it; null for a code Intl does not know. */
function countryNameOf(code: string): string | null {
  try {
    const name = countryNames.of(code);
    return name === undefined || name === code ? null : name;
  } catch {
    return null;
  }
}

/**
 * A kept visit as Shlink writes one. Linklet keeps no address and the referrer's host alone,
 * so: `referer` is that host ('' for a direct or withheld one), `userAgent` the kept one (cut to
 * 256 characters; '' when withheld), which Shlink's clients parse for browser and OS, `visitLocation` the country alone (no region, city
 * or coordinates) or null, `visitedUrl` the short URL. `redirectUrl` is left out: Linklet does
 * not record where each visit went (the link's target may have changed since).
 */
export function toShlinkVisit(visit: StoredVisit, shortUrl: string) {
  return {
    referer: visit.referrer === null || visit.referrer === 'direct' ? '' : visit.referrer,
    date: formatShlinkDate(visit.at),
    userAgent: visit.userAgent ?? '',
    visitLocation:
      visit.country === null
        ? null
        : {
            countryCode: visit.country,
            countryName: countryNameOf(visit.country),
            regionName: null,
            cityName: null,
            latitude: null,
            longitude: null,
            timezone: null,
            isEmpty: false,
          },
    potentialBot: visit.bot,
    visitedUrl: shortUrl,
  };
}
