import type { LinkStore, RecentLinksCursor } from '../../../core/store/link-store.js';
import type { CachedLinkStore } from './link-cache.js';

/** Links read per page; each page is one short read, and requests are served between pages. */
const WARM_PAGE = 1000;

export interface WarmedCache {
  /** Links the cache took. */
  links: number;
  /** Milliseconds from the first read to the last. */
  ms: number;
}

/**
 * Fills the cache with the store's newest active links as the server starts, until it is full
 * or every link is in: without it, a restarted server at a million links sends nearly every
 * click to the database until each link has been clicked once (a SQLite read costs a redirect
 * several times what a cached one does). A page at a time, with requests served between pages;
 * a link changed meanwhile is forgotten as usual, and a page read across a change is not kept.
 * Resolves with what was kept; a store without `recentActiveLinks` leaves the cache cold.
 */
export async function warmLinkCache(
  store: Pick<LinkStore, 'recentActiveLinks'>,
  cache: Pick<CachedLinkStore, 'admit' | 'epoch' | 'reserve'>,
  now: () => number = Date.now,
): Promise<WarmedCache> {
  const started = performance.now();
  let links = 0;
  let before: RecentLinksCursor | undefined;
  while (store.recentActiveLinks) {
    const readSince = cache.epoch();
    const page = await store.recentActiveLinks(WARM_PAGE, now(), before);
    // A full page: more are coming, so the cache will fill its budget; take it in one piece.
    if (page.length === WARM_PAGE && before === undefined) cache.reserve();
    const { kept, room } = cache.admit(page, readSince);
    links += kept;
    if (!room) break;
    const last = page.at(-1);
    if (last === undefined || page.length < WARM_PAGE) break;
    before = { createdAt: last.createdAt, codeKey: last.codeKey };
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { links, ms: Math.round(performance.now() - started) };
}
