import { isUnder } from './api-reply.js';
import { openPageBase } from './local-backend.js';

/** An http(s) URL without credentials: what a page may navigate to or hand to `tabs.create`. */
export function isWebUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, username, password } = new URL(url);
  return (protocol === 'http:' || protocol === 'https:') && username === '' && password === '';
}

/**
 * Whether a short URL may be copied, QR-encoded or opened: a web URL, or this extension's own
 * page for local links. Checked where a URL leaves the extension, not only where it came in, so
 * a history written before the checks (or tampered with) cannot open `data:`, `file:` or
 * `chrome:` pages either.
 */
export function isOpenableShortUrl(url: string): boolean {
  return isWebUrl(url) || isUnder(url, openPageBase());
}
