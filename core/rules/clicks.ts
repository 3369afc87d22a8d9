import type { RawVisit, VisitRow } from './visit-rows.js';

/** Daily click counts are kept at least this many UTC days (older days are purged by the writer). */
export const CLICK_DAYS_KEPT = 90;

/** How many days `GET /api/v1/links/{code}` shows in `clicks_by_day`: today and the 29 before. */
export const CLICK_DAYS_SHOWN = 30;

const DAY_MS = 86_400_000;

/** The UTC day (days since 1970-01-01) an epoch-milliseconds time falls on. */
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);

/** A day number as `YYYY-MM-DD`. */
export const formatDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * Where clicks go: the code key of the link answered 302, when (for its UTC day), when visits are
 * recorded the raw strings of its visit (parsed later, by the batch writer), and the link's owner
 * (undefined: nobody's), so a recorder that serves some owners only (webhooks) lets the others'
 * clicks go at once instead of carrying them to its next beat.
 */
export type ClickRecorder = (codeKey: string, at: number, visit?: RawVisit, ownerId?: number) => void;

/**
 * One write of counted clicks: on one UTC `day`, `counts[i]` more clicks for the link holding
 * `codeKeys[i]` (plain arrays, so a batch goes to a writer thread or into `unnest` as it is).
 * Stores add them (never overwrite: several processes add up) to the link's total and its day.
 */
export interface ClickBatch {
  day: number;
  codeKeys: string[];
  counts: number[];
  /** The visits of these clicks (and bot visits), written in the same transaction. */
  visits?: VisitRow[];
  /**
   * Epoch seconds: visits older than this are removed (their daily counts per dimension stay),
   * at most `FOLD_PER_BATCH` of them by this batch.
   */
  foldBefore?: number;
}

/** A link's clicks as the management API shows them: its total and its days with clicks, oldest first. */
export interface LinkClicks {
  total: number;
  days: Array<{ day: number; clicks: number }>;
}

/**
 * Whether an answered short-URL request is a click: a `GET` answered 302 that is not a
 * prefetch. `HEAD`, 404 and 410 are not, and neither is a browser guessing what may be opened
 * next (`Sec-Purpose: prefetch` from Chromium's speculation rules, `Purpose: prefetch` from
 * older ones and Firefox): nobody followed the link yet. Every adapter asks this one function.
 */
export function isClick(
  method: string,
  status: number,
  secPurpose: string | null | undefined,
  purpose: string | null | undefined,
): boolean {
  if (status !== 302 || method !== 'GET') return false;
  return !isPrefetch(secPurpose) && !isPrefetch(purpose);
}

const isPrefetch = (header: string | null | undefined) => header?.toLowerCase().includes('prefetch') === true;
