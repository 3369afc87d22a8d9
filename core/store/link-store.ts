import type { RedirectRule } from '../rules/redirect-rule.js';

/** A short link as every store keeps it. Times are epoch milliseconds. */
export interface Link {
  /** The code as its creator spelled it (NFC), used to build the short URL. */
  code: string;
  /** The identity of the code (see `codeKey`): unique among active links. */
  codeKey: string;
  /** The trimmed URL as submitted. */
  originalUrl: string;
  createdAt: number;
  expiresAt: number;
  /**
   * The owner whose key made the link; absent for links made without a key or with the
   * administrator's. The optional fields are absent at their default, so a link that was never
   * managed looks exactly as it did before owners existed (and costs no memory in a cache).
   */
  ownerId?: number;
  /** Last change through the management API; absent means `createdAt`. */
  updatedAt?: number;
  /** Disabled by its owner: its short URL answers 410 while the code stays held. */
  disabled?: boolean;
  /**
   * Clicks counted so far, as the management operations read it (absent at 0). Redirect lookups
   * do not read it: a cached link's count would be stale anyway.
   */
  clicks?: number;
  /**
   * The salted slow hash of the link's password (`PasswordHasher`'s form), in whole-record reads
   * (`findByCodeKey`, the management reads) only: never cached, never in a view or an export.
   */
  passwordHash?: string;
  /**
   * The link asks for a password, as a redirect read that leaves the hash out says it (the
   * server's cache keeps this flag, never the hash).
   */
  passwordProtected?: boolean;
  /** A name its owner gave it (at most 200 characters); absent when none. */
  title?: string;
  /** Its tags, lower case (see `tagKey`), in the order given; absent when none. */
  tags?: string[];
  /** Its redirect rules in order (first match wins); absent when none. */
  redirectRules?: RedirectRule[];
  /** The link stops redirecting after this many clicks (bots are not clicks); absent: no limit. */
  maxVisits?: number;
  /** The link redirects from this moment on, not before; absent: from its creation. */
  validSince?: number;
  /** The visit's query parameters are added to the target's (the visit's win); absent: off. */
  forwardQuery?: boolean;
  /**
   * The SHA-256 (hex) of the claim token a create without a key answered (see `claim-token.ts`):
   * whoever holds the token may make the link theirs once. Written by `create` only; no read
   * gives it back (only `claimStateOf` does), so no view, export, cache or event ever carries it.
   */
  claimTokenHash?: string;
}

/** The outcome of `LinkStore.create`: the new link, or the expiration of the active holder. */
export type CreateLinkResult = { created: true; link: Link } | { created: false; holderExpiresAt: number };

/** Where a page of `recentActiveLinks` ends: its last link's creation time and code key. */
export type RecentLinksCursor = Pick<Link, 'createdAt' | 'codeKey'>;

/**
 * The one persistence interface. Every implementation runs the same contract test suite
 * (`test/contract/link-store-contract.ts`).
 */
export interface LinkStore {
  /**
   * In one atomic step: insert `link` if its `codeKey` is free, or replace the holder if the
   * holder has expired (expiresAt <= now); otherwise leave the holder alone and report its
   * expiration. Never select-then-insert: two concurrent creates of one code must not both win.
   * Resolves only once the write is durable.
   */
  create(link: Link, now: number): Promise<CreateLinkResult>;
  /** The link holding this code key, active or expired, if any: the whole record, never cached. */
  findByCodeKey(codeKey: string): Promise<Link | undefined>;
  /**
   * Optional: the same read for a redirect, which may come from a cache (at once, not a promise,
   * on a hit) and carry only what a redirect needs. Redirects use it when a store has it. A store
   * whose reads are synchronous anyway (SQLite) answers at once, a miss included, so a redirect
   * costs no promise and no extra turn of the event loop.
   */
  lookup?(codeKey: string): Link | undefined | Promise<Link | undefined>;
  /**
   * Up to `limit` links a redirect would follow at `now` (not expired, not disabled), newest
   * first, after `before` (the last link of the page before): what a server warms its cache with
   * as it starts, so that a restart does not send every link's first click to the database.
   * Optional: without it the cache starts cold.
   */
  recentActiveLinks?(limit: number, now: number, before?: RecentLinksCursor): Promise<Link[]>;
  /** Resolves when the store answers; rejects when it does not (health checks). */
  ping(): Promise<void>;
  /** Releases connections or files. The store is unusable afterwards. */
  close(): Promise<void>;
}
