// zod/mini: the same schemas as classic zod, tree-shaken to a fraction of its size in the
// extension's service worker bundle.
import { z } from 'zod/mini';
import { invalid } from '../http/errors.js';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS, type ExpireDuration } from '../rules/expiry.js';
import type { RedirectRule } from '../rules/redirect-rule.js';

/** Optional fields given as absent, `null` or `""` count as not given (docs/api.md, "The rules, in short"). */
const notGiven = (value: unknown) => (value === null || value === '' ? undefined : value);

const typeMessage = (field: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required.` : `${field} must be a string.`;

/** Runs `clean` on the raw value before `schema` checks it (classic zod's `preprocess`). */
const cleaned = <T extends z.ZodMiniType>(clean: (value: unknown) => unknown, schema: T) =>
  z.pipe(z.transform(clean), schema);

/** The body of a shorten request on both endpoints; unknown fields are dropped. */
export const shortenBodySchema = z.object({
  original_url: cleaned(
    (value) => (value === null ? undefined : value),
    z.string({ error: typeMessage('original_url') }),
  ),
  custom_code: cleaned(notGiven, z.optional(z.string({ error: typeMessage('custom_code') }))),
  expire_duration: cleaned(
    notGiven,
    z.optional(z.enum(EXPIRE_DURATIONS, { error: `expire_duration must be one of ${EXPIRE_DURATIONS.join(', ')}.` })),
  ),
});

export interface ShortenRequest {
  originalUrl: string;
  customCode: string | undefined;
  expireDuration: ExpireDuration;
  /** An exact expiry (epoch ms) instead of `expireDuration`: Shlink's `validUntil`, checked by its caller. */
  expiresAt?: number;
  /** v1 only (`parsePasswordField`): the link's password, hashed by `shorten`. */
  password?: string;
  /** A v1 create's title and tags (see `parseCreateLabels`); the legacy dialect never sets them. */
  title?: string;
  tags?: string[];
  /** A v1 create's rules and limits (see `parseCreateRuleFields`), checked; absent when not given. */
  redirectRules?: RedirectRule[];
  maxVisits?: number | null;
  validSince?: number | null;
  forwardQuery?: boolean;
  /** A v1 create without a key: its claim token's hash, kept with the link (see `Link.claimTokenHash`). */
  claimTokenHash?: string;
}

/**
 * Turns a parsed JSON body into a shorten request, or throws a 400 that names the first field
 * that broke a rule. The URL and code rules themselves are checked by `shorten`.
 */
export function parseShortenBody(body: unknown): ShortenRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('The request body must be a JSON object, such as {"original_url":"https://example.com"}.');
  }
  const result = shortenBodySchema.safeParse(body);
  if (!result.success) throw invalid(result.error.issues[0]?.message ?? 'The request body is not valid.');
  return {
    originalUrl: result.data.original_url,
    customCode: result.data.custom_code,
    expireDuration: result.data.expire_duration ?? DEFAULT_EXPIRE_DURATION,
  };
}
