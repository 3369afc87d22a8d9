import type { IncomingMessage } from 'node:http';

// The headers Node keeps only the first of when a request repeats them (see
// `IncomingMessage.headers`); every other one it joins with `, ` already.
const FIRST_KEPT = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/**
 * A request header as `Headers.get` gives it (what the core handler sees): repeated values joined
 * by `, `. The shorten fast path (and a redirect's 404 or 410 page) read headers through this, so
 * that a doubled header (two API keys, say) means the same to them as to the handler; a click's
 * headers are read by `redirectHeadersOf`. Only the headers Node would cut to their first value
 * are read from `headersDistinct`, which is built per request on first use.
 */
export function requestHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  // Absent from `headers` means absent altogether: most requests never build `headersDistinct`.
  if (value === undefined) return undefined;
  if (FIRST_KEPT.has(name)) return req.headersDistinct[name]?.join(', ');
  return Array.isArray(value) ? value.join(', ') : value;
}
