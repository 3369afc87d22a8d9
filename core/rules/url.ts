import { invalid } from '../http/errors.js';
import { isPrivateHost } from './private-address.js';

export const DEFAULT_MAX_URL_LENGTH = 2048;
/** The largest `MAX_URL_LENGTH` a server may be configured with: no Linklet server stores a longer target. */
export const LONGEST_MAX_URL_LENGTH = 65_536;

export interface OriginalUrlRules {
  maxLength: number;
  /** Hosts (with port, as `URL.host` gives them) of the service itself: links there would loop. */
  ownHosts: readonly string[];
  /**
   * Refuse targets on private, loopback and link-local addresses and `localhost` (see
   * `isPrivateHost`): a public server should not lead its visitors into their own networks or
   * to a cloud metadata service. Off for the extension, whose links stay in one browser.
   */
  blockPrivateTargets?: boolean;
}

// C0 controls, space, DEL, C1 controls, and the Unicode spaces and invisible format characters.
const WHITESPACE_OR_CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/u;

/**
 * Checks an `original_url` and returns it as it will be stored: the trimmed submission, not a
 * re-serialization, so the creator gets back exactly what they sent.
 */
export function parseOriginalUrl(raw: string, rules: OriginalUrlRules): string {
  const url = raw.trim();
  if (url.length === 0) throw invalid('original_url is required.');
  if (url.length > rules.maxLength) {
    throw invalid(`original_url must be at most ${rules.maxLength} characters long; it has ${url.length}.`);
  }
  if (WHITESPACE_OR_CONTROL.test(url)) {
    throw invalid('original_url must not contain whitespace or control characters; percent-encode them.');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('original_url must be an absolute http or https URL, such as https://example.com/page.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalid(`original_url must use http or https, not ${parsed.protocol.slice(0, -1)}.`);
  }
  if (parsed.hostname === '' || !/^https?:\/\//i.test(url)) {
    throw invalid('original_url must be an absolute http or https URL with a host, such as https://example.com/page.');
  }
  const authority = url.replace(/^https?:\/\//i, '').split(/[/?#\\]/u, 1)[0] ?? '';
  if (parsed.username !== '' || parsed.password !== '' || authority.includes('@')) {
    throw invalid('original_url must not contain user credentials (user@host).');
  }
  if (pointsAtOwnHost(parsed, rules.ownHosts)) {
    throw invalid(`original_url must not point at this service (${parsed.host}); that link would loop.`);
  }
  if (rules.blockPrivateTargets && isPrivateHost(parsed.hostname)) {
    throw invalid(
      `original_url must not point at a private, loopback or link-local address (${parsed.hostname}); ` +
        'this server only links to public hosts. Use the public address of the page.',
    );
  }
  // The redirect sends the ASCII form, and caches hold it: 2,000 Hangul characters are 18 KB
  // once percent-encoded, so the limit is on that form too, not only on what was typed.
  const sentLength = parsed.href.length;
  if (sentLength > rules.maxLength) {
    throw invalid(
      `original_url must be at most ${rules.maxLength} characters long in its ASCII form (punycode host, ` +
        `percent-encoded path), which the redirect sends; it has ${sentLength}. Shorten its non-ASCII parts.`,
    );
  }
  return url;
}

// Every spelling of this machine: a link to any of them loops when the service runs on localhost.
const LOOPBACK =
  /^(?:localhost|.+\.localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\])$/;

/**
 * The identity of a host as a URL parser leaves it (lower case, IPv4 in dotted decimal, IPv6
 * compressed, default port dropped), also without a trailing dot (`sho.rt.` is `sho.rt`), and
 * with every loopback spelling (`localhost`, `127.0.0.1`, `[::1]`, …) as one.
 */
function hostIdentity(hostname: string, port: string): string {
  const name = hostname.replace(/\.$/, '');
  return `${LOOPBACK.test(name) ? 'localhost' : name}:${port}`;
}

// Each rule set's own hosts as identities, worked out on its first create rather than on every one.
const ownIdentities = new WeakMap<readonly string[], ReadonlySet<string>>();

const identitiesOf = (ownHosts: readonly string[]): ReadonlySet<string> => {
  let identities = ownIdentities.get(ownHosts);
  if (identities === undefined) {
    identities = new Set(
      ownHosts.map((host) => {
        const [, hostname = '', port = ''] = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host.toLowerCase()) ?? [];
        return hostIdentity(hostname, port);
      }),
    );
    ownIdentities.set(ownHosts, identities);
  }
  return identities;
};

/** Whether a URL points at one of the service's own hosts (`host` strings, port included). */
function pointsAtOwnHost(url: URL, ownHosts: readonly string[]): boolean {
  return identitiesOf(ownHosts).has(hostIdentity(url.hostname.toLowerCase(), url.port));
}

/**
 * The host of `raw` when it is an http or https URL on one of the service's own hosts (the loop
 * `parseOriginalUrl` refuses), else undefined: for an API that names that refusal apart
 * (YOURLS's `error:noloop`), asked once `parseOriginalUrl` has refused the URL.
 */
export function serviceHostOf(raw: string, ownHosts: readonly string[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    return undefined;
  }
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  return web && pointsAtOwnHost(parsed, ownHosts) ? parsed.host : undefined;
}

/** Drops the trailing slashes of a base URL, so `https://sho.rt/` and `https://sho.rt` build the same links. */
export function trimTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}
