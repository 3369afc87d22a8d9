/**
 * The options' server field as a URL to try: a typed address with a scheme is kept as typed
 * (`normalizeServerUrl` judges it), and one without (`localhost:8080`, `sho.rt`) is completed as
 * docs/extension.md says. A server on this computer or the local network (`localhost`,
 * `*.localhost`, an IP address, `*.local`) is almost always plain http, as `npm start` serves it;
 * any other name gets https, since a public server without it would expose the API key.
 */
export function withServerScheme(typed: string): string {
  const text = typed.trim();
  if (text === '') return '';
  if (text.startsWith('//')) return `${schemeFor(hostOf(text.slice(2)))}:${text}`;
  // A scheme is letters then ":" not followed by a port number (`localhost:8080` has none).
  if (/^[a-z][a-z\d+.-]*:(?!\d)/i.test(text)) return text;
  return `${schemeFor(hostOf(text))}://${text}`;
}

/** The host of a scheme-less address: before any path, query or fragment, without the port. */
function hostOf(address: string): string {
  const authority = address.split(/[/?#]/, 1)[0] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.replace(/:\d*$/, '').toLowerCase();
}

/** Whether a host names this computer or the local network, where servers speak plain http. */
export function isLocalHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name.endsWith('.local') ||
    name.startsWith('[') || // an IPv6 literal
    /^\d{1,3}(\.\d{1,3}){3}$/.test(name)
  );
}

const schemeFor = (host: string) => (isLocalHost(host) ? 'http' : 'https');
