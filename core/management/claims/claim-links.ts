import { dayOf } from '../../rules/clicks.js';
import { codeKey, MAX_CODE_LENGTH } from '../../rules/code.js';
import type { LinkManagementStore } from '../../store/link-management-store.js';
import type { Link, LinkStore } from '../../store/link-store.js';
import type { ClaimItem } from './claim-request.js';
import { hashClaimToken, isClaimTokenShaped, sameHash } from './claim-token.js';

/** What a claim reads and writes. */
export type ClaimStore = Pick<LinkManagementStore, 'claimStateOf' | 'claimLink' | 'clicksOf'> &
  Pick<LinkStore, 'findByCodeKey'>;

/** Why a link was not made the caller's. */
export type ClaimRefusal = 'unknown' | 'owned' | 'mismatch';

/** What one claim came to: the link, now the caller's, or the reason it is not. */
export type ClaimOutcome = { claimed: true; link: Link } | { claimed: false; code: string; reason: ClaimRefusal };

/** Each refusal said for the person whose browser asked: what happened, and that nothing more can be done. */
export const REFUSAL_MESSAGES: Record<ClaimRefusal, string> = {
  unknown: 'No link has this code any more: it was deleted, or it expired and its code was taken again.',
  owned: 'This link already belongs to someone: it was claimed before, or made with an API key.',
  mismatch: 'The claim token does not match this link: only the browser that made the link holds its token.',
};

/** The code key of a code as a short URL spells it, or undefined when it cannot be one. */
function keyOf(code: string): string | undefined {
  const normal = code.normalize('NFC');
  const length = [...normal].length;
  return length === 0 || length > MAX_CODE_LENGTH ? undefined : codeKey(normal);
}

/**
 * Makes links made without a key the caller's, each on the proof its create answered (the claim
 * token): the token's hash is compared in constant time with the one kept, then the store gives
 * the link over only if it is still ownerless with that hash (so two claims of one link cannot
 * both win), spending the token. A link already the caller's counts as claimed: a retry whose
 * first answer was lost says the same as the first time. One at a time, in the order asked.
 */
export async function claimLinks(
  store: ClaimStore,
  items: readonly ClaimItem[],
  ownerId: number,
  now: number,
): Promise<ClaimOutcome[]> {
  const outcomes: ClaimOutcome[] = [];
  for (const { code, claimToken } of items) {
    const key = keyOf(code);
    const refuse = (reason: ClaimRefusal) => outcomes.push({ claimed: false, code, reason });
    const state = key === undefined ? undefined : await store.claimStateOf(key);
    if (key === undefined || state === undefined) {
      refuse('unknown');
      continue;
    }
    if (state.ownerId !== undefined) {
      const mine = state.ownerId === ownerId ? await ownLink(store, key, now) : undefined;
      if (mine) outcomes.push({ claimed: true, link: mine });
      else refuse('owned');
      continue;
    }
    // Hashed whatever the shape, so a malformed token costs what a wrong one does.
    const given = await hashClaimToken(claimToken);
    if (
      !isClaimTokenShaped(claimToken) ||
      state.claimTokenHash === undefined ||
      !sameHash(given, state.claimTokenHash)
    ) {
      refuse('mismatch');
      continue;
    }
    const link = await store.claimLink(key, given, ownerId, now);
    if (link) outcomes.push({ claimed: true, link });
    else refuse('owned'); // claimed (or retaken) between the read and the write
  }
  return outcomes;
}

/** The caller's own link holding this key, with its clicks (as a claim answers it). */
async function ownLink(store: ClaimStore, key: string, now: number): Promise<Link | undefined> {
  const link = await store.findByCodeKey(key);
  if (link === undefined) return undefined;
  const { total } = await store.clicksOf(key, link.createdAt, dayOf(now));
  return total > 0 ? { ...link, clicks: total } : link;
}
