import { invalid, LinkletError } from '../../http/errors.js';
import { parseIsoDateTime } from '../../rules/redirect-condition-check.js';
import { MAX_REDIRECT_RULES, MAX_RULE_CONDITIONS, type RedirectRule } from '../../rules/redirect-rule.js';
import { type OriginalUrlRules, parseOriginalUrl } from '../../rules/url.js';
import type { LinkPatch } from '../../store/link-management-store.js';
import { parseLinkRuleCondition } from './link-rule-condition.js';

/** The rule and limit fields of a link as the v1 API sets them. */
export type LinkRulePatch = Pick<LinkPatch, 'redirectRules' | 'maxVisits' | 'validSince' | 'forwardQuery'>;

const RULE_EXAMPLE = '[{"target_url":"https://example.com/app","conditions":[{"type":"device","value":"android"}]}]';

function parseRule(raw: unknown, field: string, urlRules: OriginalUrlRules): RedirectRule {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid(`${field} must be an object with target_url and conditions, such as ${RULE_EXAMPLE.slice(1, -1)}.`);
  }
  const fields = raw as Record<string, unknown>;
  if (typeof fields.target_url !== 'string')
    throw invalid(`${field}.target_url is required: the URL this rule sends to.`);
  let targetUrl: string;
  try {
    targetUrl = parseOriginalUrl(fields.target_url, urlRules);
  } catch (error) {
    // The same rules as a link's own target, named by where the URL was given.
    if (error instanceof LinkletError) throw invalid(error.message.replace(/^original_url/, `${field}.target_url`));
    throw error;
  }
  const conditions = fields.conditions;
  if (!Array.isArray(conditions) || conditions.length === 0 || conditions.length > MAX_RULE_CONDITIONS) {
    const has = Array.isArray(conditions) ? `; it has ${conditions.length}` : '';
    throw invalid(`${field}.conditions must be a list of 1 to ${MAX_RULE_CONDITIONS} conditions${has}.`);
  }
  return {
    targetUrl,
    conditions: conditions.map((one, j) => parseLinkRuleCondition(one, `${field}.conditions[${j}]`)),
  };
}

/**
 * A `redirect_rules` list as stored, or a 400 naming the first rule and field that broke a rule
 * (at most 20 rules, each 1–10 conditions, each target under the same URL rules as a link's).
 */
export function parseRedirectRules(raw: unknown, urlRules: OriginalUrlRules, field = 'redirect_rules'): RedirectRule[] {
  if (!Array.isArray(raw)) throw invalid(`${field} must be a list of rules, such as ${RULE_EXAMPLE}, or [] for none.`);
  if (raw.length > MAX_REDIRECT_RULES) {
    throw invalid(`${field} may hold at most ${MAX_REDIRECT_RULES} rules; it has ${raw.length}.`);
  }
  return raw.map((rule, i) => parseRule(rule, `${field}[${i}]`, urlRules));
}

function parseMaxVisits(raw: unknown): number {
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 1) {
    throw invalid('max_visits must be a whole number of at least 1 (the clicks the link takes), or null for no limit.');
  }
  return raw;
}

function parseValidSince(raw: unknown): number {
  const at = parseIsoDateTime(raw);
  if (at === undefined) {
    throw invalid(
      'valid_since must be an ISO 8601 date-time such as 2026-12-01T09:00:00Z, or null to open the link now.',
    );
  }
  return at;
}

function parseForwardQuery(raw: unknown): boolean {
  if (typeof raw !== 'boolean') throw invalid('forward_query must be true or false.');
  return raw;
}

const fieldsOf = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/**
 * The rules and limits of a v1 create (`POST /api/v1/shorten`): as with its other optional
 * fields, absent or `null` is not given (no rules, no limit, open now, forwarding off).
 */
export function parseCreateRuleFields(body: unknown, urlRules: OriginalUrlRules): LinkRulePatch {
  const fields = fieldsOf(body);
  const given = (name: string) => fields[name] !== undefined && fields[name] !== null;
  const out: LinkRulePatch = {};
  if (given('redirect_rules')) {
    const rules = parseRedirectRules(fields.redirect_rules, urlRules);
    if (rules.length > 0) out.redirectRules = rules;
  }
  if (given('max_visits')) out.maxVisits = parseMaxVisits(fields.max_visits);
  if (given('valid_since')) out.validSince = parseValidSince(fields.valid_since);
  if (given('forward_query') && parseForwardQuery(fields.forward_query)) out.forwardQuery = true;
  return out;
}

/**
 * The rules and limits of `PATCH /api/v1/links/{code}`: `redirect_rules` the whole new list
 * (`[]` or `null` removes them), `max_visits` and `valid_since` (`null` removes), `forward_query`.
 * Fields not sent are left out.
 */
export function parseRuleFieldsPatch(body: unknown, urlRules: OriginalUrlRules): LinkRulePatch {
  const fields = fieldsOf(body);
  const patch: LinkRulePatch = {};
  if ('redirect_rules' in fields) {
    patch.redirectRules = fields.redirect_rules === null ? [] : parseRedirectRules(fields.redirect_rules, urlRules);
  }
  if ('max_visits' in fields) patch.maxVisits = fields.max_visits === null ? null : parseMaxVisits(fields.max_visits);
  if ('valid_since' in fields) {
    patch.validSince = fields.valid_since === null ? null : parseValidSince(fields.valid_since);
  }
  if ('forward_query' in fields) patch.forwardQuery = parseForwardQuery(fields.forward_query);
  return patch;
}
