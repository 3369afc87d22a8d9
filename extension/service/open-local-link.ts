import { resolveCode } from '../../core/redirect/resolve.js';
import type { IdbLinkStore } from '../backend/idb-link-store.js';
import { isWebUrl } from '../openable-url.js';

/** What the open page does with a local short link: go, say it expired (and when), or say there is none. */
export type LocalLinkOpening =
  | { state: 'go'; url: string }
  | { state: 'expired'; expiresAt: number }
  | { state: 'missing' };

/**
 * The core's resolve rule on the extension's store, with the same outcomes a server gives (go,
 * expired, unknown). Opening a local link is its click, as a server's 302 is: counted here, in
 * the background, which outlives the page (a page that navigates away may abort its own write).
 * A failed count never stops the opening.
 */
export async function openLocalLink(store: IdbLinkStore, codeSegment: string, now: number): Promise<LocalLinkOpening> {
  const resolution = await resolveCode(codeSegment, store, now);
  // The core only stores web URLs; the check keeps it so even if a store was tampered with.
  if (resolution.state === 'active' && isWebUrl(resolution.link.originalUrl)) {
    await store.addClick(resolution.link.codeKey).catch(() => undefined);
    return { state: 'go', url: resolution.link.originalUrl };
  }
  if (resolution.state === 'expired') return { state: 'expired', expiresAt: resolution.link.expiresAt };
  return { state: 'missing' };
}
