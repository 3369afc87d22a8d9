/**
 * Whether `url` lies under `base`: same scheme and host, path below the base's, no credentials.
 * Both are compared in their parsed form, so case, percent-encoding and Unicode spellings of one
 * URL agree, and `https://sho.rt@evil.example/` is not under `https://sho.rt`.
 */
export function isUnder(url: string, base: string): boolean {
  if (!URL.canParse(url) || !URL.canParse(`${base}/`)) return false;
  const parsed = new URL(url);
  const prefix = new URL(`${base}/`).href;
  return parsed.username === '' && parsed.password === '' && parsed.href.startsWith(prefix) && parsed.href !== prefix;
}

/** An http(s) URL without credentials: what a page may navigate to or hand to `tabs.create`. */
export function isWebUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, username, password } = new URL(url);
  return (protocol === 'http:' || protocol === 'https:') && username === '' && password === '';
}
