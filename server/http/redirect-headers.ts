/**
 * The request headers a redirect reads, as `IncomingMessage.headers` would give them: `host`,
 * `referer` and `user-agent` their first value (Node drops the others), every other one its
 * values joined by `, `.
 */
export class RedirectHeaders {
  host: string | undefined = undefined;
  requestId: string | undefined = undefined;
  secPurpose: string | undefined = undefined;
  purpose: string | undefined = undefined;
  referer: string | undefined = undefined;
  userAgent: string | undefined = undefined;
  dnt: string | undefined = undefined;
  secGpc: string | undefined = undefined;
  forwardedFor: string | undefined = undefined;
  country: string | undefined = undefined;
}

/** Whether a header name as sent (any case) is `lower`, without making a lower-case copy. */
function isNamed(name: string, lower: string): boolean {
  if (name === lower) return true;
  if (name.length !== lower.length) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if ((code >= 65 && code <= 90 ? code | 32 : code) !== lower.charCodeAt(i)) return false;
  }
  return true;
}

const joined = (held: string | undefined, value: string) => (held === undefined ? value : `${held}, ${value}`);

/**
 * Reads a redirect's headers in one pass over Node's raw (name, value, …) array. A click reads
 * ten headers at most; asking `req.headers` for them made Node build the object of all of them
 * first (each name matched and lower-cased, each one a property added), which a bare server
 * never does (docs/performance.md: about 1 % of a hot redirect's instructions with a benchmark's
 * two headers, more with a browser's eleven). `countryHeader` is `COUNTRY_HEADER`, lower case.
 */
export function redirectHeadersOf(raw: readonly string[], countryHeader: string | undefined): RedirectHeaders {
  const headers = new RedirectHeaders();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const value = raw[i + 1] as string;
    switch (name.length) {
      case 3:
        if (isNamed(name, 'dnt')) headers.dnt = joined(headers.dnt, value);
        break;
      case 4:
        if (headers.host === undefined && isNamed(name, 'host')) headers.host = value;
        break;
      case 7:
        if (isNamed(name, 'referer')) headers.referer ??= value;
        else if (isNamed(name, 'purpose')) headers.purpose = joined(headers.purpose, value);
        else if (isNamed(name, 'sec-gpc')) headers.secGpc = joined(headers.secGpc, value);
        break;
      case 10:
        if (headers.userAgent === undefined && isNamed(name, 'user-agent')) headers.userAgent = value;
        break;
      case 11:
        if (isNamed(name, 'sec-purpose')) headers.secPurpose = joined(headers.secPurpose, value);
        break;
      case 12:
        if (isNamed(name, 'x-request-id')) headers.requestId = joined(headers.requestId, value);
        break;
      case 15:
        if (isNamed(name, 'x-forwarded-for')) headers.forwardedFor = joined(headers.forwardedFor, value);
        break;
    }
    if (countryHeader !== undefined && isNamed(name, countryHeader)) headers.country = joined(headers.country, value);
  }
  return headers;
}

/**
 * One header's values from Node's raw array, joined by `, ` as `req.headers` joins them, without
 * building `req.headers`: what a redirect with rules reads besides `redirectHeadersOf`'s (its
 * `Accept-Language`), so a redirect without rules never pays for it. `lower` is lower case.
 */
export function rawHeaderOf(raw: readonly string[], lower: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === lower.length && isNamed(name, lower)) found = joined(found, raw[i + 1] as string);
  }
  return found;
}
