import type { StoredVisit, VisitTallies } from '../management/visits/visits.js';
import type { ClickBatch, LinkClicks } from '../rules/clicks.js';
import type { RedirectRule } from '../rules/redirect-rule.js';
import type { Link, LinkStore } from './link-store.js';

/** An API key as the management API lists it; the key itself is never stored, only its hash. */
export interface OwnerKey {
  id: number;
  ownerId: number;
  /** The owner's name. */
  name: string;
  createdAt: number;
  lastUsedAt?: number;
  revoked: boolean;
}

/** Whose links a request may see: every link (the administrator) or one owner's. */
export type OwnerScope = { all: true } | { ownerId: number };

export type LinkStatus = 'active' | 'expired' | 'disabled';

/** One page of `listLinks`: newest first, strictly after `after` in that order. */
export interface LinkListQuery {
  scope: OwnerScope;
  limit: number;
  after?: { createdAt: number; codeKey: string };
  /** Lower-case ASCII text that the code, the URL or the title must contain (ASCII case ignored). */
  search?: string;
  status?: LinkStatus;
  /** A tag key (see `tagKey`) the link must carry. */
  tag?: string;
  now: number;
  /**
   * Another order than newest first (Shlink's `orderBy`); ties go by code key in the same
   * direction. Only with `offset`: a keyset `after` follows the default order alone.
   */
  order?: LinkOrder;
  /** Links of this order to skip first: page numbers, as Shlink's API counts them. */
  offset?: number;
}

/** What a list can be ordered by: creation, code (its key), target URL, title (none as ""), clicks. */
export type LinkOrderField = 'created' | 'code' | 'url' | 'title' | 'clicks';
export interface LinkOrder {
  field: LinkOrderField;
  descending: boolean;
}

/** What `countLinks` answers. */
export interface LinkCount {
  links: number;
  clicks: number;
}

/** The links `countLinks` counts: those `listLinks` would list with the same filters. */
export type LinkCountQuery = Pick<LinkListQuery, 'scope' | 'search' | 'status' | 'tag' | 'now'>;

/** One page of `listChanges`: oldest change first, from `since` on, strictly after `after`. */
export interface ChangeListQuery {
  scope: OwnerScope;
  limit: number;
  since: number;
  after?: { updatedAt: number; codeKey: string };
}

/** A link deleted through the management API, remembered so devices can sync the deletion. */
export interface Tombstone {
  code: string;
  codeKey: string;
  ownerId?: number;
  deletedAt: number;
}

export type LinkChange = { kind: 'link'; link: Link } | { kind: 'deleted'; tombstone: Tombstone };

export interface LinkPatch {
  originalUrl?: string;
  disabled?: boolean;
  /** A new password's stored hash, or `null` to remove the password. */
  passwordHash?: string | null;
  /** A new title; `null` removes it. */
  title?: string | null;
  /** The whole new list of tag keys; empty removes them all. */
  tags?: string[];
  /** Renew: the new expiry. The one change an expired link takes (and is active again by). */
  expiresAt?: number;
  /** The whole new list of redirect rules; empty removes them all. */
  redirectRules?: RedirectRule[];
  /** A new visit limit; `null` removes it. */
  maxVisits?: number | null;
  /** A new start; `null` removes it. */
  validSince?: number | null;
  forwardQuery?: boolean;
}

/** One tag of an owner's links: how many carry it, their clicks and their bot visits added up. */
export interface TagCount {
  tag: string;
  links: number;
  clicks: number;
  bots: number;
}

/**
 * A link's tag keys with `from` renamed to `to` in its place (kept once when it has both), or
 * removed when `to` is undefined; `undefined` when the link does not carry `from`. What every
 * store computes for `renameTag` and `deleteTag`.
 */
export function retagged(tags: readonly string[] | undefined, from: string, to?: string): string[] | undefined {
  if (!tags?.includes(from)) return undefined;
  const next: string[] = [];
  for (const tag of tags) {
    const kept = tag === from ? to : tag;
    if (kept !== undefined && !next.includes(kept)) next.push(kept);
  }
  return next;
}

/** A changed link, or why nothing changed (another owner's link is `not_found`, never told apart). */
export type LinkUpdateResult = { updated: true; link: Link } | { updated: false; reason: 'not_found' | 'expired' };

/** What a claim needs to know of the link holding a code: whose it is, and its claim token's hash. */
export interface ClaimState {
  ownerId?: number;
  claimTokenHash?: string;
}

/** Tombstones are kept this long at least; a `changed_since` further back cannot be answered. */
export const TOMBSTONE_RETENTION_MS = 30 * 86_400_000;

/** A key's `last_used_at` is written at most this often (never a write per request). */
export const KEY_TOUCH_INTERVAL_MS = 60_000;

/**
 * What owners, keys and the management API need from a store, apart from `LinkStore` so that a
 * store serving only shortens and redirects (the extension's IndexedDB) need not grow it. The
 * server's SQLite and PostgreSQL stores and the memory store implement both; one contract suite
 * (`test/contract/link-management-contract.ts`) holds them to the same behaviour.
 */
export interface LinkManagementStore {
  /** Records a key (by its SHA-256 hex) for the owner of this name, making the owner if new. */
  createKey(name: string, keyHash: string, now: number): Promise<OwnerKey>;
  listKeys(): Promise<OwnerKey[]>;
  /** Revokes a key (again is fine); false when there is no key with that id. */
  revokeKey(id: number, now: number): Promise<boolean>;
  /** The unrevoked key with this hash, if any. */
  findKeyByHash(keyHash: string): Promise<OwnerKey | undefined>;
  /** Sets `lastUsedAt` to `now` unless it is already within `KEY_TOUCH_INTERVAL_MS` of it. */
  touchKey(id: number, now: number): Promise<void>;
  listLinks(query: LinkListQuery): Promise<Link[]>;
  /**
   * How many links `listLinks` would list in all (a page count needs it), their clicks added up,
   * and their bot visits (each link's own: a deleted or retaken code's visits are not its holder's).
   */
  countLinks(query: LinkCountQuery): Promise<LinkCount>;
  /**
   * The bot visits of the links `countLinks` counts, over all their days (clicks count people,
   * bots are kept apart). Apart from `countLinks`, which a page count calls on every page: this
   * reads each link's daily counts.
   */
  countBots(query: LinkCountQuery): Promise<number>;
  /** Links changed (made, patched) and deleted within the scope, ordered by change time, code key. */
  listChanges(query: ChangeListQuery): Promise<LinkChange[]>;
  /**
   * Changes an active link in scope in one atomic step; `updatedAt` always moves forward. An
   * expired one (its code not retaken: the row is still its own) changes only with `expiresAt`.
   */
  updateLink(codeKey: string, scope: OwnerScope, patch: LinkPatch, now: number): Promise<LinkUpdateResult>;
  /** Removes a link in scope (any state) and leaves a tombstone; false when there was none. */
  deleteLink(codeKey: string, scope: OwnerScope, now: number): Promise<boolean>;
  /** A random secret shared by every instance on this store (signs listing cursors). */
  signingSecret(): Promise<string>;
  /**
   * Adds a batch of counted clicks to the links now holding its code keys (codes no link holds
   * are skipped), in one write; days older than `CLICK_DAYS_KEPT` before the batch's are purged
   * by the same writer. Additions, never overwrites, so processes sharing the store add up.
   */
  addClicks(batch: ClickBatch): Promise<void>;
  /** The total clicks of the link created at `createdAt` under this code key, and its days from `fromDay` on. */
  clicksOf(codeKey: string, createdAt: number, fromDay: number): Promise<LinkClicks>;
  /**
   * The visits of the link created at `createdAt` under this code key on UTC days
   * `fromDay..toDay`, kept and folded together: bot visits, and clicks per value of each dimension.
   */
  visitTalliesOf(codeKey: string, createdAt: number, fromDay: number, toDay: number): Promise<VisitTallies>;
  /** That link's kept visits, newest first (time, then id), strictly before `before` when given. */
  listVisits(
    codeKey: string,
    createdAt: number,
    limit: number,
    before?: { at: number; id: number },
  ): Promise<StoredVisit[]>;
  /** Every tag of the links in scope (any status), with their links, clicks and bot visits; in no order. */
  listTags(scope: OwnerScope): Promise<TagCount[]>;
  /**
   * Renames the tag key `from` to `to` on every link in scope (any status) that carries it, in its
   * place; a link already carrying `to` keeps it once (merged). Each changed link's `updatedAt`
   * moves forward (devices sync it). Answers how many links changed.
   */
  renameTag(scope: OwnerScope, from: string, to: string, now: number): Promise<number>;
  /** Removes the tag key from every link in scope that carries it, as `renameTag` changes them; how many changed. */
  deleteTag(scope: OwnerScope, tag: string, now: number): Promise<number>;
  /**
   * Deletes the visits of the link in scope holding this code (any status): its kept visits, its
   * daily visit counts, its click total and days, in one atomic step, and moves its `updatedAt`
   * forward (devices sync the new count). Answers how many visits went (clicks and bot visits, as
   * the counts held them), or `undefined` when no link in scope holds the code. Clicks written
   * later (a batch counted before, written after) are counted as new.
   */
  deleteVisits(codeKey: string, scope: OwnerScope, now: number): Promise<number | undefined>;
  /**
   * The owner and claim-token hash of the link holding this code key (any status), if one does:
   * the one read that gives the hash back, for the claim to compare in constant time.
   */
  claimStateOf(codeKey: string): Promise<ClaimState | undefined>;
  /**
   * In one atomic step: gives the link holding this code key to `ownerId` if it still has no owner
   * and still carries this claim-token hash (a compare-and-set after `claimStateOf`), clears the
   * hash (a token is good once) and moves `updatedAt` forward (devices sync the link). Answers the
   * link as it is now, with its clicks, or `undefined` when it was not so (claimed or retaken since).
   */
  claimLink(codeKey: string, claimTokenHash: string, ownerId: number, now: number): Promise<Link | undefined>;
}

/** The names of `LinkManagementStore`'s operations, for wrappers that pass each one through. */
export const LINK_MANAGEMENT_OPERATIONS = [
  'createKey',
  'listKeys',
  'revokeKey',
  'findKeyByHash',
  'touchKey',
  'listLinks',
  'countLinks',
  'countBots',
  'listChanges',
  'updateLink',
  'deleteLink',
  'signingSecret',
  'addClicks',
  'clicksOf',
  'visitTalliesOf',
  'listVisits',
  'listTags',
  'renameTag',
  'deleteTag',
  'deleteVisits',
  'claimStateOf',
  'claimLink',
] as const satisfies ReadonlyArray<keyof LinkManagementStore>;

export type ManagedLinkStore = LinkStore & LinkManagementStore;

/** Whether a store serves the management API too (the server's stores do; the extension's does not). */
export function isManagedLinkStore(store: LinkStore): store is ManagedLinkStore {
  return LINK_MANAGEMENT_OPERATIONS.every((name) => typeof (store as Partial<ManagedLinkStore>)[name] === 'function');
}

/** Whether a link is within a scope. */
export function inScope(link: { ownerId?: number }, scope: OwnerScope): boolean {
  return 'all' in scope || link.ownerId === scope.ownerId;
}

/** A link's status at `now`: expiry first (an expired link's code is free, disabled or not). */
export function statusOf(link: Link, now: number): LinkStatus {
  if (now >= link.expiresAt) return 'expired';
  return link.disabled ? 'disabled' : 'active';
}

/** ASCII-only lower case, as SQLite's `lower()` does: what searches compare. */
export function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * A search term as the stores compare it: NFC, as codes and titles are stored (Hangul typed on
 * some systems arrives decomposed, NFD, and would match nothing), then ASCII lower case.
 */
export function searchKey(text: string): string {
  return asciiLowerCase(text.normalize('NFC'));
}

/** Links and tombstones in one order (change time, then code key), the first `limit` of them. */
export function mergeChanges(
  changes: Array<{ at: number; codeKey: string; change: LinkChange }>,
  limit: number,
): LinkChange[] {
  return changes
    .sort((a, b) => a.at - b.at || (a.codeKey < b.codeKey ? -1 : a.codeKey > b.codeKey ? 1 : 0))
    .slice(0, limit)
    .map(({ change }) => change);
}

/**
 * One page of `listChanges` from a page of changed links and one of tombstones, each read in
 * change order: a link's change time is its `updatedAt` (its creation when never changed), a
 * tombstone's its deletion. The SQL stores read the two tables apart and merge them here.
 */
export function changesOf(links: Link[], tombstones: Tombstone[], limit: number): LinkChange[] {
  return mergeChanges(
    [
      ...links.map((link) => ({
        at: link.updatedAt ?? link.createdAt,
        codeKey: link.codeKey,
        change: { kind: 'link', link } as LinkChange,
      })),
      ...tombstones.map((tombstone) => ({
        at: tombstone.deletedAt,
        codeKey: tombstone.codeKey,
        change: { kind: 'deleted', tombstone } as LinkChange,
      })),
    ],
    limit,
  );
}
