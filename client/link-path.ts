/**
 * The path of one link on the links API, relative like every path `callLinklet` takes: its code
 * percent-encoded (Hangul included), as the server matches it.
 */
export function linkPath(code: string): string {
  return `api/v1/links/${encodeURIComponent(code)}`;
}
