import { LinkletError } from '../../core/http/errors.js';
import { normalizeCustomCode } from '../../core/rules/code.js';
import { EXPIRE_DURATIONS, type ExpireDuration } from '../../core/rules/expiry.js';
import { isRealDate } from '../../ui/real-date.js';
import { CLOCK_SKEW_MS } from '../sync/sync-limits.js';
import { readRemoteLabels } from './remote-labels.js';
import { type RemoteLimits, readRemoteLimits } from './remote-limits.js';
import { describe } from './reply-checks.js';
import { serverShortUrl, serverTargetProblem } from './server-target.js';

/** A link as the server's links API lists it, once checked (its rules and limits: `RemoteLimits`). */
export interface RemoteLink extends RemoteLimits {
  kind: 'link';
  code: string;
  shortUrl: string;
  originalUrl: string;
  createdAt: number;
  expiresAt: number;
  disabled: boolean;
  clicks: number;
  updatedAt: number;
  /** The server asks for a password at its short URL (present only then). */
  passwordProtected?: true;
  /** The server's title and tags (see `readRemoteLabels`); absent when none. */
  title?: string;
  tags?: string[];
}

/** A deletion in a `changed_since` listing. */
export interface RemoteDeletion {
  kind: 'deleted';
  code: string;
  updatedAt: number;
}

export type RemoteChange = RemoteLink | RemoteDeletion;

/** A listed item, checked: the change, or why no Linklet server would have listed it. */
export type ReadChange = { change: RemoteChange; problem?: undefined } | { change?: undefined; problem: string };

/**
 * One item of `GET /api/v1/links`, checked against the server's own rules: a code as the server
 * stores it (valid, NFC), the short URL the server writes for that code, a target the core's URL
 * rule accepts (see `serverTargetProblem`), real dates, none made after `now` (give or take the
 * clock skew). An item that breaks one is left out with the reason, and the rest still syncs.
 */
export function readRemoteChange(item: unknown, server: string, now: number): ReadChange {
  const fields = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  const { code, short_url: shortUrl, original_url: originalUrl, status, clicks } = fields;
  const codeProblem = storedCodeProblem(code);
  if (codeProblem !== undefined) return { problem: codeProblem };
  const updatedAt = pastDate(fields.updated_at, 'updated_at', now);
  if (typeof updatedAt === 'string') return { problem: updatedAt };
  if (fields.deleted === true) return { change: { kind: 'deleted', code: code as string, updatedAt } };
  if (!isShortUrlOf(shortUrl, server, code as string)) {
    return { problem: `short_url ${describe(shortUrl)} is not ${server}/${code}/, the short URL of its code.` };
  }
  const targetProblem = serverTargetProblem(originalUrl, [new URL(server).host]);
  if (targetProblem !== undefined) return { problem: targetProblem };
  const createdAt = pastDate(fields.created_at, 'created_at', now);
  if (typeof createdAt === 'string') return { problem: createdAt };
  const expiresAt = fields.expiration_date;
  const expiry = typeof expiresAt === 'string' ? Date.parse(expiresAt) : Number.NaN;
  if (!isRealDate(expiry)) return { problem: `expiration_date ${describe(expiresAt)} is not a date.` };
  return {
    change: {
      kind: 'link',
      code: code as string,
      shortUrl: shortUrl as string,
      originalUrl: originalUrl as string,
      createdAt,
      expiresAt: expiry,
      disabled: status === 'disabled',
      // Servers from before clicks were counted say 0, or nothing.
      clicks: typeof clicks === 'number' && Number.isSafeInteger(clicks) && clicks >= 0 ? clicks : 0,
      updatedAt,
      // Servers from before passwords say nothing: not protected.
      ...(fields.password_protected === true && { passwordProtected: true as const }),
      ...readRemoteLabels(fields),
      ...readRemoteLimits(fields),
    },
  };
}

/** Why `code` is not one a server stores (the core's rule, and its NFC form), or undefined. */
function storedCodeProblem(code: unknown): string | undefined {
  if (typeof code !== 'string') return `code ${describe(code)} is not text.`;
  try {
    if (normalizeCustomCode(code) === code) return undefined;
    return `code ${describe(code)} is not in the normalized (NFC) form a server stores.`;
  } catch (error) {
    if (error instanceof LinkletError) return error.message.replace(/^custom_code/, 'code');
    throw error;
  }
}

/** The server writes `{BASE_URL}/{code}/`; compared parsed, so spellings of one URL agree. */
function isShortUrlOf(shortUrl: unknown, server: string, code: string): boolean {
  return (
    typeof shortUrl === 'string' &&
    URL.canParse(shortUrl) &&
    new URL(shortUrl).href === new URL(serverShortUrl(server, code)).href
  );
}

/** The date, or why it is none a server wrote by `now`: not a date, or later than the skew allows. */
function pastDate(value: unknown, field: string, now: number): number | string {
  const parsed = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!isRealDate(parsed)) return `${field} ${describe(value)} is not a date.`;
  if (parsed > now + CLOCK_SKEW_MS) {
    return `${field} ${describe(value)} is in the future (more than ${CLOCK_SKEW_MS / 60_000} minutes after this browser's clock).`;
  }
  return parsed;
}

const DURATION_MS: Record<ExpireDuration, number> = {
  '24h': 86_400_000,
  '48h': 2 * 86_400_000,
  '1week': 7 * 86_400_000,
  '1month': 30 * 86_400_000,
};

/**
 * The expiry choice closest to a link's lifetime. The API does not say which one the link was
 * made with, and the history (and its export file) keeps one for every link.
 */
export function nearestExpire(createdAt: number, expiresAt: number): ExpireDuration {
  const lifetime = expiresAt - createdAt;
  let best: ExpireDuration = EXPIRE_DURATIONS[0];
  for (const duration of EXPIRE_DURATIONS) {
    if (Math.abs(DURATION_MS[duration] - lifetime) < Math.abs(DURATION_MS[best] - lifetime)) best = duration;
  }
  return best;
}
