import { EXPIRE_DURATIONS, type ExpireDuration } from '../core/expiry.js';
import { isRealDate } from '../ui/real-date.js';
import { isValidCode } from './api-reply.js';
import { isUnder, isWebUrl } from './openable-url.js';

/** A link as the server's links API lists it, once checked. */
export interface RemoteLink {
  kind: 'link';
  code: string;
  shortUrl: string;
  originalUrl: string;
  createdAt: number;
  expiresAt: number;
  disabled: boolean;
  clicks: number;
  updatedAt: number;
}

/** A deletion in a `changed_since` listing. */
export interface RemoteDeletion {
  kind: 'deleted';
  code: string;
  updatedAt: number;
}

export type RemoteChange = RemoteLink | RemoteDeletion;

/**
 * One item of `GET /api/v1/links`, checked as a create's reply is (`readApiLink`): a short URL
 * under the configured server, a web URL as target, a valid code, real dates. Undefined for an
 * item that breaks a rule: it is left out rather than stored, and the rest of the page still syncs.
 */
export function readRemoteChange(item: unknown, server: string): RemoteChange | undefined {
  const fields = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  const code = fields.code;
  const updatedAt = dateOf(fields.updated_at);
  if (typeof code !== 'string' || !isValidCode(code) || updatedAt === undefined) return undefined;
  if (fields.deleted === true) return { kind: 'deleted', code, updatedAt };
  const { short_url: shortUrl, original_url: originalUrl, status, clicks } = fields;
  const createdAt = dateOf(fields.created_at);
  const expiresAt = dateOf(fields.expiration_date);
  if (typeof shortUrl !== 'string' || !isUnder(shortUrl, server)) return undefined;
  if (typeof originalUrl !== 'string' || !isWebUrl(originalUrl)) return undefined;
  if (createdAt === undefined || expiresAt === undefined) return undefined;
  return {
    kind: 'link',
    code,
    shortUrl,
    originalUrl,
    createdAt,
    expiresAt,
    disabled: status === 'disabled',
    // Servers from before clicks were counted say 0, or nothing.
    clicks: typeof clicks === 'number' && Number.isSafeInteger(clicks) && clicks >= 0 ? clicks : 0,
    updatedAt,
  };
}

function dateOf(value: unknown): number | undefined {
  const parsed = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return isRealDate(parsed) ? parsed : undefined;
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
