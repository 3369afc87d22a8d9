/**
 * `open.html#/<code>/` (a local short URL) → the code segment, still percent-encoded: the hash
 * without its `#`, one leading `/` and every trailing `/`. The trailing slashes are counted by a
 * scan from the end, not by a regex such as `/\/+$/`: that one is retried from every slash in
 * the hash and takes quadratic time, seconds for a hash of 40,000 slashes that a page can link to.
 */
export function codeSegmentOfHash(hash: string): string {
  let start = hash.startsWith('#') ? 1 : 0;
  if (hash[start] === '/') start++;
  let end = hash.length;
  while (end > start && hash[end - 1] === '/') end--;
  return hash.slice(start, end);
}
