/**
 * A long URL as a person types it, made into what the API takes: "example.com/page" becomes
 * "https://example.com/page", as Kutt and Dub do. Only text that starts like a host name (a
 * dot before any slash, optionally a port) gets a scheme; anything else (another scheme such as
 * `mailto:`, a word) is sent as typed, so the API's rule and its sentence decide.
 */
export function withScheme(typed: string): string {
  const url = typed.trim();
  if (url.startsWith('//')) return `https:${url}`;
  // A scheme is letters then ":" not followed by a port number ("example.com:8080" has none).
  if (/^[a-z][a-z\d+.-]*:(?!\d)/i.test(url)) return url;
  return /^[^\s/?#:@]+\.[^\s/?#:@.]+(:\d+)?([/?#]|$)/u.test(url) ? `https://${url}` : url;
}
