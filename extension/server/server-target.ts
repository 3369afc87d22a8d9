import { LinkletError } from '../../core/http/errors.js';
import { LONGEST_MAX_URL_LENGTH, parseOriginalUrl } from '../../core/rules/url.js';

/**
 * Why `url` is no `original_url` a Linklet server could hold, or undefined when one could: the
 * core's own rule (length, characters, scheme, credentials, loops onto `ownHosts`) at the longest
 * `MAX_URL_LENGTH` a server may be configured with, and exactly as stored (trimmed). Whatever
 * hands the extension a link (a server's listing, an export file) cannot bring in a target no
 * backend would store: a right-to-left override, a 500 KB string, a `javascript:` URL.
 */
export function serverTargetProblem(url: unknown, ownHosts: readonly string[] = []): string | undefined {
  if (typeof url !== 'string') return 'original_url is not text.';
  try {
    const stored = parseOriginalUrl(url, { maxLength: LONGEST_MAX_URL_LENGTH, ownHosts });
    return stored === url
      ? undefined
      : 'original_url has surrounding whitespace, which a server trims before it stores.';
  } catch (error) {
    if (error instanceof LinkletError) return error.message;
    throw error;
  }
}

/** The short URL a code will have on `server` (the v1 form, ending in `/`). */
export function serverShortUrl(server: string, code: string): string {
  return code === '' ? '' : `${server}/${code}/`;
}
