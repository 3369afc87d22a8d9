/**
 * How long a browser may keep a redirect by default (`REDIRECT_CACHE_SECONDS`): a browser follows
 * its cached 302 without asking again, so this is how long a disable, a new target or a delete
 * can go unseen by someone who already clicked. A minute keeps a burst of clicks off the server
 * and bounds that delay (docs/redirect-caching.md).
 */
export const DEFAULT_REDIRECT_CACHE_SECONDS = 60;

/**
 * The `Cache-Control` of a redirect whose link ends at `expiresAt`: kept for the smaller of the
 * whole seconds the link has left and `maxSeconds`, so it never outlives the link nor hides a
 * change for longer than the operator chose; `maxSeconds` 0 means never kept (`no-store`).
 */
export function redirectCacheControl(expiresAt: number, now: number, maxSeconds: number): string {
  if (maxSeconds <= 0) return 'no-store';
  const secondsLeft = Math.max(0, Math.floor((expiresAt - now) / 1000));
  if (secondsLeft < maxSeconds) return `private, max-age=${secondsLeft}`;
  // Most links outlive the cache time: their header is the same string every time.
  if (maxSeconds !== fullMaxSeconds) {
    fullMaxSeconds = maxSeconds;
    fullCacheControl = `private, max-age=${maxSeconds}`;
  }
  return fullCacheControl;
}
let fullMaxSeconds = -1;
let fullCacheControl = '';
