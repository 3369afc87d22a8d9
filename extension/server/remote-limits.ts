import { MAX_REDIRECT_RULES } from '../../core/rules/redirect-rule.js';
import { isRealDate } from '../../ui/real-date.js';

/** What the history shows of a synced link's rules and limits (set on the server, never here). */
export interface RemoteLimits {
  /** The server sends some of its visitors elsewhere by rules. */
  hasRules?: true;
  /** The link stops after this many clicks. */
  maxVisits?: number;
  /** The link opens from this moment on. */
  validSince?: number;
}

/**
 * A listed link's `redirect_rules`, `max_visits` and `valid_since`, as far as they are what a
 * server sends: a list of at most 20 rules, a whole number from 1, a real date. A server from before
 * them (no fields) or one that breaks the shapes gives none, and the link itself still syncs.
 */
export function readRemoteLimits(fields: Record<string, unknown>): RemoteLimits {
  const limits: RemoteLimits = {};
  const { redirect_rules: rules, max_visits: maxVisits, valid_since: validSince } = fields;
  if (Array.isArray(rules) && rules.length > 0 && rules.length <= MAX_REDIRECT_RULES) limits.hasRules = true;
  if (typeof maxVisits === 'number' && Number.isSafeInteger(maxVisits) && maxVisits >= 1) limits.maxVisits = maxVisits;
  const since = typeof validSince === 'string' ? Date.parse(validSince) : Number.NaN;
  if (isRealDate(since)) limits.validSince = since;
  return limits;
}

/** An entry with the server's rules and limits in place of its own (the server wins, as for the rest). */
export function withRemoteLimits<E extends RemoteLimits>(entry: E, limits: RemoteLimits): E {
  const { hasRules: _rules, maxVisits: _visits, validSince: _since, ...rest } = entry;
  return { ...rest, ...limits } as E;
}
