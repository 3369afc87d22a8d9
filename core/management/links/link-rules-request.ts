import { invalid, LinkletError } from '../../http/errors.js';
import { parseAddressPattern } from '../../redirect/rules/address-pattern.js';
import {
  MAX_REDIRECT_RULES,
  REDIRECT_CONDITION_TYPES,
  type RedirectCondition,
  type RedirectConditionType,
  type RedirectRule,
  RULE_BROWSERS,
  RULE_DEVICES,
} from '../../rules/redirect-rule.js';
import { type OriginalUrlRules, parseOriginalUrl } from '../../rules/url.js';
import type { LinkPatch } from '../../store/link-management-store.js';

/** A rule holds at least one condition and at most this many (SPEC: each 1–10). */
export const MAX_RULE_CONDITIONS = 10;
/** The longest query parameter name or value a condition names. */
const MAX_PARAM_LENGTH = 200;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;
const COUNTRY = /^[A-Za-z]{2}$/;
const QUERY_KINDS: ReadonlySet<string> = new Set(['query-param', 'any-value-query-param', 'valueless-query-param']);

/** The rule and limit fields of a link as the v1 API sets them. */
export type LinkRulePatch = Pick<LinkPatch, 'redirectRules' | 'maxVisits' | 'validSince' | 'forwardQuery'>;

/** An ISO 8601 date-time (with its offset) as epoch ms, or undefined when `value` is not one. */
export function parseIsoDateTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_DATE_TIME.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}

const RULE_EXAMPLE = '[{"target_url":"https://example.com/app","conditions":[{"type":"device","value":"android"}]}]';

/** A condition's value as stored (canonical case), or a 400 naming `field` and what it accepts. */
function conditionValue(type: RedirectConditionType, raw: unknown, field: string): string | undefined {
  const needs = (what: string) => invalid(`${field}.value must be ${what}.`);
  if (type === 'any-value-query-param' || type === 'valueless-query-param') {
    if (raw !== undefined && raw !== null) throw invalid(`${field} (${type}) takes a key and no value.`);
    return undefined;
  }
  if (typeof raw !== 'string') throw needs(`a string (${type})`);
  switch (type) {
    case 'device':
      if (!(RULE_DEVICES as readonly string[]).includes(raw.toLowerCase()))
        throw needs(`one of ${RULE_DEVICES.join(', ')}`);
      return raw.toLowerCase();
    case 'browser':
      if (!(RULE_BROWSERS as readonly string[]).includes(raw.toLowerCase()))
        throw needs(`one of ${RULE_BROWSERS.join(', ')}`);
      return raw.toLowerCase();
    case 'language':
      if (!LANGUAGE_TAG.test(raw)) throw needs('a language tag such as ko or ko-KR');
      return raw;
    case 'query-param':
      if (raw.length > MAX_PARAM_LENGTH) throw needs(`at most ${MAX_PARAM_LENGTH} characters`);
      return raw;
    case 'geolocation-country-code':
      if (!COUNTRY.test(raw)) throw needs('a two-letter ISO 3166 country code such as KR');
      return raw.toUpperCase();
    case 'before-date':
    case 'after-date': {
      const at = parseIsoDateTime(raw);
      if (at === undefined) throw needs('an ISO 8601 date-time such as 2026-12-01T09:00:00Z');
      return new Date(at).toISOString();
    }
    case 'ip-address':
      if (parseAddressPattern(raw) === undefined) throw needs('an IP address or CIDR block such as 192.0.2.0/24');
      return raw.trim();
  }
}

function parseCondition(raw: unknown, field: string): RedirectCondition {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid(`${field} must be an object such as {"type":"device","value":"android"}.`);
  }
  const fields = raw as Record<string, unknown>;
  const type = fields.type;
  if (typeof type !== 'string' || !(REDIRECT_CONDITION_TYPES as readonly string[]).includes(type)) {
    throw invalid(`${field}.type must be one of ${REDIRECT_CONDITION_TYPES.join(', ')}.`);
  }
  const kind = type as RedirectConditionType;
  const condition: RedirectCondition = { type: kind };
  if (QUERY_KINDS.has(kind)) {
    const key = fields.key;
    if (typeof key !== 'string' || key === '' || key.length > MAX_PARAM_LENGTH) {
      throw invalid(`${field}.key must be the query parameter's name (1 to ${MAX_PARAM_LENGTH} characters).`);
    }
    condition.key = key;
  } else if (fields.key !== undefined && fields.key !== null) {
    throw invalid(`${field}.key is only for query parameter conditions; leave it out for ${kind}.`);
  }
  const value = conditionValue(kind, fields.value, field);
  if (value !== undefined) condition.value = value;
  return condition;
}

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
  return { targetUrl, conditions: conditions.map((one, j) => parseCondition(one, `${field}.conditions[${j}]`)) };
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
