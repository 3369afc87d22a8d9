import { MAX_PAGE_SIZE } from '../../core/management/links/list-params.js';

// The bounds of a pull from a companion server (docs/sync-limits.md says why each is what it is).
// Each is what a real Linklet server stays within, so only a broken or hostile one meets them.

/** Links per page: the pull asks for the server's largest page, and a server never lists more. */
export const MAX_PAGE_ITEMS = MAX_PAGE_SIZE;

/**
 * Bytes of one listed link, at most: an `original_url` of 65,536 UTF-16 units (the longest
 * `MAX_URL_LENGTH`) is at most 218,454 bytes of JSON (3 per unit, 3 more per lone surrogate,
 * which the ASCII-form limit keeps under 7,282); the rest is a short URL, a code and three dates.
 */
export const MAX_ITEM_BYTES = 256 * 1024;

/** Bytes of one answer of `GET /api/v1/links`: a full page of the largest links, and the envelope. */
export const MAX_ANSWER_BYTES = MAX_PAGE_ITEMS * MAX_ITEM_BYTES + 64 * 1024;

/** Links the history holds; the pull adds none past it. A thousand of the server's largest pages. */
export const MAX_HISTORY_LINKS = 1000 * MAX_PAGE_ITEMS;

/** Pages one pull asks for: enough for a full history, and an end for a server that never stops. */
export const MAX_PAGES = MAX_HISTORY_LINKS / MAX_PAGE_ITEMS;

/**
 * How far ahead of this browser's clock the server's may run. A date further ahead is no date a
 * server wrote (it would become `changed_since`, and every later pull would list nothing).
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** Which bound a server went past, and the bound: what the options page and popup put in words. */
export interface SyncLimit {
  kind: 'page-items' | 'answer-bytes' | 'history';
  bound: number;
}

/** A server's answer went past a bound: the pull takes nothing from it, and the status says so. */
export class SyncLimitError extends Error {
  constructor(
    readonly limit: SyncLimit,
    reason: string,
  ) {
    super(reason);
    this.name = 'SyncLimitError';
  }
}

/** Where the pull's reasons go: the background's console, the only log an extension has. */
export function logSyncProblem(server: string, reason: string): void {
  console.warn(`Linklet sync with ${server}: ${reason}`);
}
