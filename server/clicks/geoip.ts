import maxmind from 'maxmind';
import { createClientAddressOf } from '../http/client-address.js';
import { countryCode } from './visit-parser.js';

type CountryRecord = {
  country_code?: string;
  country?: { iso_code?: string };
  registered_country?: { iso_code?: string };
};

/**
 * A local country database (`GEOIP_DB`, any country `.mmdb`: MaxMind's GeoLite2-Country or the
 * CC0 `@ip-location-db/*-country-mmdb` files) read with `maxmind`; the client is the one the rate
 * limiter sees (`TRUSTED_PROXIES`). Only the country is kept, never the address.
 */
export async function openCountryLookup(path: string, trustedProxies: readonly string[]) {
  const reader = await maxmind.open(path);
  const clientOf = createClientAddressOf(trustedProxies);
  return (peer: string | undefined, forwardedFor: string | string[] | undefined): string | null => {
    try {
      const record = reader.get(clientOf(peer, forwardedFor)) as CountryRecord | null;
      return countryCode(record?.country_code ?? record?.country?.iso_code ?? record?.registered_country?.iso_code);
    } catch {
      return null; // not an address the database knows
    }
  };
}
