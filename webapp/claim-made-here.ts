import type { LinkView } from '../core/management/links/link-view.js';
import { byId, h } from '../ui/dom.js';
import type { MessageKey } from '../ui/i18n.js';
import { plural } from '../ui/plural.js';
import { callApi } from './api.js';
import { language, t } from './i18n.js';
import { claimableMadeHere, settleClaims } from './made-here.js';
import type { Owner } from './session.js';

/** What `POST /api/v1/links/claim` answers. */
interface ClaimReport {
  claimed: LinkView[];
  refused: Array<{ code: string; reason: 'unknown' | 'owned' | 'mismatch' }>;
}

// The server takes 100 claims a request, and 16 KiB of body: 50 of the longest codes (64 Hangul
// syllables) with their tokens fit, so a browser's 100 kept links go in two requests at most.
const CLAIMS_PER_REQUEST = 50;

const REASONS: Record<ClaimReport['refused'][number]['reason'], MessageKey> = {
  unknown: 'webClaimUnknown',
  owned: 'webClaimOwned',
  mismatch: 'webClaimMismatch',
};

/**
 * At sign-in, makes the links made in this browser while signed out the owner's (SPEC "Everyday
 * use"): each kept with the proof its create answered, sent to the server, which gives each one
 * that is still nobody's. The proofs used are dropped (claimed links leave "Made in this browser"
 * for "Your links"; refused ones stay listed without theirs), and a note says what happened, once.
 * The administrator owns no links: nothing is sent. A failure (offline, a busy server) keeps every
 * proof for the next sign-in or visit, and says nothing: the links are where they were.
 */
export async function claimMadeHere(key: string, owner: Owner): Promise<void> {
  const claims = claimableMadeHere();
  if (owner.admin || claims.length === 0) return;
  const claimed = new Set<string>();
  const refused: ClaimReport['refused'] = [];
  try {
    for (let start = 0; start < claims.length; start += CLAIMS_PER_REQUEST) {
      const { data } = await callApi<ClaimReport>('api/v1/links/claim', {
        method: 'POST',
        key,
        body: { claims: claims.slice(start, start + CLAIMS_PER_REQUEST) },
      });
      for (const link of data.claimed) claimed.add(link.code);
      refused.push(...data.refused);
    }
  } catch {
    // What was settled before the failure stays settled; the rest is tried again next time.
  }
  if (claimed.size === 0 && refused.length === 0) return;
  settleClaims(claimed, new Set(refused.map((item) => item.code)));
  showClaimNote(claimed.size, refused);
}

/** The note above "Your links": how many became the owner's, and each refused link with why. */
function showClaimNote(claimed: number, refused: ClaimReport['refused']): void {
  const note = byId('claim-note');
  const said = claimed > 0 ? plural(t, language(), claimed, { one: 'webClaimedOne', other: 'webClaimedOther' }) : '';
  note.replaceChildren(
    ...(said === '' ? [] : [h('p', { class: 'note' }, said)]),
    ...refused.map(({ code, reason }) => h('p', { class: 'muted' }, t('webClaimRefused', [code, t(REASONS[reason])]))),
  );
  note.hidden = false; // a status region: read out as it fills
}

/** Signed out: the note was the owner's to read. */
export function hideClaimNote(): void {
  const note = byId('claim-note');
  note.replaceChildren();
  note.hidden = true;
}
