import { queryKeyProblem } from '../core/rules/redirect-condition-check.js';
import { MAX_REDIRECT_RULES, MAX_RULE_CONDITIONS, type RedirectConditionType } from '../core/rules/redirect-rule.js';
import type { MessageKey } from '../ui/i18n.js';
import { withScheme } from '../ui/with-scheme.js';
import { isoFromLocalInput, localInputValue } from './local-date-time.js';
import type { RedirectRuleBody, RuleConditionBody, RulesLinkView } from './rule-shapes.js';

/** A condition as the editor holds it: every field as typed (a date as a `datetime-local` value). */
export interface ConditionDraft {
  type: RedirectConditionType;
  key: string;
  value: string;
}

/** A rule as the editor holds it. */
export interface RuleDraft {
  target: string;
  conditions: ConditionDraft[];
}

/** What is wrong with a rule before it is sent, and where: its address, or one of its conditions. */
export interface RuleProblem {
  rule: number;
  condition?: number;
  text: MessageKey;
}

const DATE_TYPES: ReadonlySet<RedirectConditionType> = new Set(['before-date', 'after-date']);
const KEY_TYPES: ReadonlySet<RedirectConditionType> = new Set([
  'query-param',
  'any-value-query-param',
  'valueless-query-param',
]);

/** The condition a new one starts as: the commonest wish, a kind of device. */
export function newCondition(type: RedirectConditionType = 'device'): ConditionDraft {
  if (type === 'device') return { type, key: '', value: 'android' };
  if (type === 'browser') return { type, key: '', value: 'chrome' };
  return { type, key: '', value: '' };
}

/** Whether a condition of this type names a query parameter (and so shows a name field). */
export function hasKey(type: RedirectConditionType): boolean {
  return KEY_TYPES.has(type);
}

/** Whether a condition of this type has a value field (the "any value" and "no value" kinds have none). */
export function hasValue(type: RedirectConditionType): boolean {
  return type !== 'any-value-query-param' && type !== 'valueless-query-param';
}

/** A link's rules (from the API) as the editor's drafts, dates in the browser's zone. */
export function draftsFromRules(rules: RulesLinkView['redirect_rules']): RuleDraft[] {
  return (rules ?? []).map((rule) => ({
    target: rule.target_url,
    conditions: rule.conditions.map((condition) => ({
      // The server only lists the kinds it takes (REDIRECT_CONDITION_TYPES).
      type: condition.type as RedirectConditionType,
      key: condition.key ?? '',
      value: DATE_TYPES.has(condition.type as RedirectConditionType)
        ? localInputValue(condition.value)
        : (condition.value ?? ''),
    })),
  }));
}

/** One condition as the API takes it (what it would be as typed, for the live sentence too). */
export function conditionBody(draft: ConditionDraft): RuleConditionBody {
  const body: RuleConditionBody = { type: draft.type };
  if (hasKey(draft.type)) body.key = draft.key.trim();
  if (!hasValue(draft.type)) return body;
  const value = draft.value.trim();
  if (DATE_TYPES.has(draft.type)) body.value = isoFromLocalInput(value) ?? value;
  else if (draft.type === 'geolocation-country-code') body.value = value.toUpperCase();
  else body.value = value;
  return body;
}

/** A draft as the API takes it, as typed (the address with its scheme added), for the live sentence. */
export function ruleBody(draft: RuleDraft): RedirectRuleBody {
  const target = draft.target.trim();
  return { target_url: target === '' ? '' : withScheme(target), conditions: draft.conditions.map(conditionBody) };
}

/**
 * The drafts as the `redirect_rules` of a `PATCH`, or the first problem a person can fix before
 * sending: a missing or non-web address, a rule without conditions, a value that cannot match.
 */
export function rulesBody(drafts: readonly RuleDraft[]): { rules: RedirectRuleBody[] } | { problem: RuleProblem } {
  if (drafts.length > MAX_REDIRECT_RULES) return { problem: { rule: MAX_REDIRECT_RULES, text: 'ruleTooMany' } };
  const rules: RedirectRuleBody[] = [];
  for (const [index, draft] of drafts.entries()) {
    const body = ruleBody(draft);
    if (!isWebAddress(body.target_url)) return { problem: { rule: index, text: 'ruleTargetInvalid' } };
    if (draft.conditions.length === 0) return { problem: { rule: index, text: 'ruleNeedsCondition' } };
    if (draft.conditions.length > MAX_RULE_CONDITIONS) {
      return { problem: { rule: index, text: 'ruleTooManyConditions' } };
    }
    for (const [at, condition] of draft.conditions.entries()) {
      const text = conditionProblem(condition);
      if (text !== undefined) return { problem: { rule: index, condition: at, text } };
    }
    rules.push(body);
  }
  return { rules };
}

/** Why a condition cannot match as typed, or undefined. */
export function conditionProblem(draft: ConditionDraft): MessageKey | undefined {
  const key = draft.key.trim();
  const value = draft.value.trim();
  // The server's own rule, so the form refuses exactly the names the API would.
  if (hasKey(draft.type) && queryKeyProblem(key) !== undefined) return 'ruleQueryKeyInvalid';
  switch (draft.type) {
    case 'query-param':
      return value === '' ? 'ruleQueryValueMissing' : undefined;
    case 'language':
      return /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(value) ? undefined : 'ruleLanguageInvalid';
    case 'geolocation-country-code':
      return /^[a-z]{2}$/i.test(value) ? undefined : 'ruleCountryInvalid';
    case 'before-date':
    case 'after-date':
      return isoFromLocalInput(value) === undefined ? 'ruleDateInvalid' : undefined;
    case 'ip-address':
      return isAddressOrRange(value) ? undefined : 'ruleIpInvalid';
    default:
      return undefined;
  }
}

/** An absolute http(s) address: what the API takes as a target (it checks the rest and says so). */
export function isWebAddress(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  return (protocol === 'https:' || protocol === 'http:') && hostname !== '';
}

/** An IPv4 or IPv6 address, optionally with a `/prefix` (a CIDR range). */
export function isAddressOrRange(text: string): boolean {
  const [address = '', prefix, extra] = text.split('/');
  if (extra !== undefined) return false;
  const v4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(address);
  const v6 = !v4 && address.includes(':') && URL.canParse(`http://[${address}]/`);
  if (!v4 && !v6) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (v4 ? 32 : 128);
}

/** Moves the rule at `from` one place up (-1) or down (+1); the order decides which rule wins. */
export function moveRule<T>(list: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return [...list];
  const moved = [...list];
  [moved[from], moved[to]] = [moved[to] as T, moved[from] as T];
  return moved;
}
