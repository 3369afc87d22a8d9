import type { ExpireDuration } from '../../core/rules/expiry.js';

/**
 * Where a link in the history stands:
 * - `local`: made by the bundled backend, opens in this browser only;
 * - `synced`: created on the companion server;
 * - `pending`: meant for the server, which was unreachable; pushed when it is back;
 * - `conflict`: the server has the code for another link; the user picks what to do;
 * - `failed`: the server refused the link for another reason (its message says why).
 */
/**
 * A change to a synced link the user made here that the server has not taken yet (it could not be
 * reached); the sync sends it, and the history shows the link as it will be.
 */
export type QueuedChange = 'disable' | 'enable' | 'delete';

export type HistoryStatus = 'local' | 'synced' | 'pending' | 'conflict' | 'failed';

/** One link the user made, as the popup lists it and the export file carries it. */
export interface HistoryEntry {
  id: string;
  code: string;
  /** The user chose the code, so a server conflict cannot be solved by generating another silently. */
  customCode: boolean;
  originalUrl: string;
  /** What to share: the server's short URL, or the extension page that opens a local link. */
  shortUrl: string;
  /** The companion server the link belongs to, or null for a local link. */
  server: string | null;
  status: HistoryStatus;
  expire: ExpireDuration;
  createdAt: number;
  expiresAt: number;
  /** Failed sync attempts since the last success; drives the backoff. */
  attempts: number;
  nextAttemptAt?: number;
  /** The last sync error or the server's conflict message, shown to the user. */
  message?: string;
  /** Pulled from the server with an API key: made on another device or client, not here. */
  fromServer?: boolean;
  /** How often the short URL was followed, as the server (or the bundled backend) last said. */
  clicks?: number;
  /** Disabled on the server: its short URL answers 410 until enabled again. */
  disabled?: boolean;
  /** The server asks for a password at its short URL (a synced link; present only then). */
  passwordProtected?: true;
  /** The server's title for a synced link (set in the web app or the API); absent when none. */
  title?: string;
  /** The server's tags for a synced link (lower case); absent when none. */
  tags?: string[];
  /** The server sends some visitors of a synced link elsewhere by rules (shown, edited in the web app). */
  hasRules?: true;
  /** A synced link's visit limit on the server. */
  maxVisits?: number;
  /** When a synced link starts opening, on the server. */
  validSince?: number;
  /** A Disable, Enable or Delete waiting for the server; replayed on top of what the server says. */
  queued?: QueuedChange;
}
