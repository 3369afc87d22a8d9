import { byId, h } from '../ui/dom.js';
import { formatDateTime } from '../ui/format-date.js';
import { copyFromButton } from './copy-button.js';
import { language, t } from './i18n.js';
import { shortUrlLink, targetText } from './link-text.js';

const STORAGE_KEY = 'linklet.madeHere';
const MAX_KEPT = 100;

/** A link made on this page while signed out, as the shorten answer gave it. */
export interface MadeHereLink {
  code: string;
  short_url: string;
  original_url: string;
  expiration_date: string;
  /**
   * The proof of creation the server answered with it (none from a server that keeps no owners):
   * at sign-in it makes the link the owner's, then it is dropped (see claim-made-here.ts).
   */
  claim_token?: string;
}

/** The links made here while signed out, newest first; [] when storage is off or holds nonsense. */
export function madeHere(): MadeHereLink[] {
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(kept) ? kept.filter((link) => typeof link?.short_url === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Keeps a link made while signed out: it belongs to no owner, so "Your links" will never list
 * it, and without this its maker would lose it with the page. Bounded, oldest dropped first.
 */
export function rememberMadeHere(link: MadeHereLink): void {
  const { code, short_url, original_url, expiration_date, claim_token } = link;
  const kept: MadeHereLink = { code, short_url, original_url, expiration_date };
  if (typeof claim_token === 'string') kept.claim_token = claim_token;
  keep([kept, ...madeHere()].slice(0, MAX_KEPT));
  renderMadeHere();
}

function keep(links: MadeHereLink[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(links));
  } catch {} // storage full or off: the link is still on screen as the result
}

/** The links made here that can still be claimed: those kept with their proof. */
export function claimableMadeHere(): Array<{ code: string; claim_token: string }> {
  return madeHere().flatMap(({ code, claim_token }) =>
    typeof code === 'string' && typeof claim_token === 'string' ? [{ code, claim_token }] : [],
  );
}

/**
 * After a claim: the links now the owner's leave this list ("Your links" shows them), and the
 * refused ones lose their proof (it will never work) but stay listed, as made here.
 */
export function settleClaims(claimed: ReadonlySet<string>, refused: ReadonlySet<string>): void {
  keep(
    madeHere().flatMap((link) => {
      if (claimed.has(link.code)) return [];
      if (!refused.has(link.code)) return [link];
      const { claim_token: _spent, ...rest } = link;
      return [rest];
    }),
  );
  renderMadeHere();
}

let signedIn = false;

/** Shows the list (and the line next to Shorten) only while signed out, when there is something to show. */
export function setMadeHereSignedIn(value: boolean): void {
  signedIn = value;
  renderMadeHere();
}

/** Draws the "Made in this browser" list: each link's code whole and its target cut in the middle, with Copy. */
export function renderMadeHere(): void {
  const links = madeHere();
  byId('sign-in-hint').hidden = signedIn;
  byId('made-here').hidden = signedIn || links.length === 0;
  byId('made-here-list').replaceChildren(
    ...links.map((link) => {
      const copy = h('button', { type: 'button' }, t('copy'));
      copy.addEventListener('click', () => void copyFromButton(copy, link.short_url));
      const expires = formatDateTime(Date.parse(link.expiration_date), language());
      return h(
        'li',
        {},
        h('span', { class: 'made-text' }, shortUrlLink(link.short_url, link.code), targetText(link.original_url)),
        h('time', { class: 'muted', datetime: link.expiration_date }, expires),
        copy,
      );
    }),
  );
}

/** "Clear this list": forgets the links made here (they stay on the server until they expire). */
export function setUpMadeHere(): void {
  byId('made-here-clear').addEventListener('click', () => {
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {}
    renderMadeHere();
  });
  renderMadeHere();
}
