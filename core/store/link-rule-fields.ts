import type { RedirectCondition, RedirectRule } from '../rules/redirect-rule.js';
import type { LinkPatch } from './link-management-store.js';
import type { Link } from './link-store.js';

/**
 * A link's redirect rules as one text column (JSON), or null for none: the SQL stores keep the
 * ordered list whole, as it is always read and replaced whole, and a link without rules keeps NULL.
 */
export function rulesToText(rules: readonly RedirectRule[] | undefined): string | null {
  if (rules === undefined || rules.length === 0) return null;
  return JSON.stringify(rules.map(({ targetUrl, conditions }) => ({ targetUrl, conditions: conditions.map(plain) })));
}

/** The rules a `rulesToText` column holds. */
export function rulesFromText(text: string): RedirectRule[] {
  return (JSON.parse(text) as RedirectRule[]).map(({ targetUrl, conditions }) => ({
    targetUrl,
    conditions: conditions.map(plain),
  }));
}

/** A condition with only the fields it has (so stores answer the same shape as the memory store). */
function plain({ type, key, value }: RedirectCondition): RedirectCondition {
  const condition: RedirectCondition = { type };
  if (key !== undefined) condition.key = key;
  if (value !== undefined) condition.value = value;
  return condition;
}

/** Whether a link has anything beyond a plain redirect: rules, a limit, a start or query forwarding. */
export const hasRedirectOptions = (link: Link): boolean =>
  link.redirectRules !== undefined ||
  link.maxVisits !== undefined ||
  link.validSince !== undefined ||
  link.forwardQuery === true;

/** A copy of `link` without its rule and limit fields. */
export function withoutRuleFields(link: Link): Link {
  const { redirectRules: _rules, maxVisits: _max, validSince: _since, forwardQuery: _forward, ...rest } = link;
  return rest;
}

/**
 * The rule and limit fields of `link` with `patch` applied, each left out at its default (no
 * rules, no limit, no start, forwarding off), as every store answers a link.
 */
export function patchedRuleFields(
  link: Partial<Link>,
  patch: LinkPatch,
): Pick<Link, 'redirectRules' | 'maxVisits' | 'validSince' | 'forwardQuery'> {
  const fields: Pick<Link, 'redirectRules' | 'maxVisits' | 'validSince' | 'forwardQuery'> = {};
  const rules = patch.redirectRules === undefined ? link.redirectRules : patch.redirectRules;
  if (rules !== undefined && rules.length > 0) fields.redirectRules = rulesFromText(rulesToText(rules) as string);
  const maxVisits = patch.maxVisits === undefined ? link.maxVisits : patch.maxVisits;
  if (maxVisits !== undefined && maxVisits !== null) fields.maxVisits = maxVisits;
  const validSince = patch.validSince === undefined ? link.validSince : patch.validSince;
  if (validSince !== undefined && validSince !== null) fields.validSince = validSince;
  if ((patch.forwardQuery ?? link.forwardQuery) === true) fields.forwardQuery = true;
  return fields;
}
