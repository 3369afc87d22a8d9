import { parseAddressPattern } from '../redirect/rules/address-pattern.js';
import { startsWithCalendarDay } from './dates.js';
import {
  REDIRECT_CONDITION_TYPES,
  type RedirectCondition,
  type RedirectConditionType,
  RULE_BROWSERS,
  RULE_DEVICES,
} from './redirect-rule.js';

/** The values a `device` or `browser` condition may name, for each API to list in a refusal. */
export const CONDITION_CHOICES = { device: RULE_DEVICES, browser: RULE_BROWSERS } as const;

/** The longest query parameter name or value a condition names. */
export const MAX_PARAM_LENGTH = 200;

/** A condition as an API hands it over after reading its own shape: nothing checked yet. */
export interface ConditionInput {
  type: unknown;
  /** The query parameter's name; absent (`undefined` or `null`) when the API's body has none. */
  key?: unknown;
  /** What is matched; absent (`undefined` or `null`) when the API's body has none. */
  value?: unknown;
}

/**
 * Why a condition was refused, for each API to say in its own words and error shape:
 * `type` no kind Linklet matches; `key-missing`/`key-too-long` a query kind without a usable
 * parameter name; `key-not-taken` a name on a kind that has none; `value-not-taken` a value on a
 * kind that matches presence alone; `value-missing` no string value; `value-blank` a blank one;
 * `value-too-long` a parameter value past the limit; `value-invalid` a value the kind cannot match.
 */
export type ConditionRefusal =
  | { reason: 'type' }
  | { reason: 'key-missing' | 'key-too-long' | 'key-not-taken'; type: RedirectConditionType }
  | { reason: 'value-not-taken' | 'value-missing' | 'value-blank'; type: RedirectConditionType }
  | { reason: 'value-too-long' | 'value-invalid'; type: RedirectConditionType };

/** A checked condition as stored, or why not. */
export type ConditionCheck = { condition: RedirectCondition } | { refusal: ConditionRefusal };

const KEYED: ReadonlySet<string> = new Set(['query-param', 'any-value-query-param', 'valueless-query-param']);
const VALUELESS: ReadonlySet<string> = new Set(['any-value-query-param', 'valueless-query-param']);
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;
const COUNTRY = /^[A-Za-z]{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

const given = (raw: unknown) => raw !== undefined && raw !== null;

/** Whether a condition of this kind names a query parameter (its `key`). */
export function isKeyedCondition(type: RedirectConditionType): boolean {
  return KEYED.has(type);
}

/** Whether a condition of this kind matches a parameter's presence alone, with no value. */
export function isValuelessCondition(type: RedirectConditionType): boolean {
  return VALUELESS.has(type);
}

/**
 * Why `key` cannot name a query parameter, or undefined. Any name a visit can carry is taken
 * (spaces, `&` or `=` arrive percent-encoded and are matched decoded), so the server and the web
 * app refuse only a blank name and one past {@link MAX_PARAM_LENGTH}.
 */
export function queryKeyProblem(key: string): 'key-missing' | 'key-too-long' | undefined {
  const name = key.trim();
  if (name === '') return 'key-missing';
  return name.length > MAX_PARAM_LENGTH ? 'key-too-long' : undefined;
}

/**
 * An ISO 8601 date-time with its offset (`Z` or `±hh:mm`) as epoch ms, or undefined when `value` is
 * not one. A day the month does not have (`02-31`) is refused: `Date.parse` would roll it over.
 */
export function parseIsoDateTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_DATE_TIME.test(value)) return undefined;
  if (!startsWithCalendarDay(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}

/**
 * An `ip-address` condition's value as stored: an address or CIDR block the matcher reads
 * (`192.0.2.7`, `2001:db8::/32`), its prefix written without leading zeros; undefined when it is neither.
 */
export function ipConditionValue(text: string): string | undefined {
  const trimmed = text.trim();
  const pattern = parseAddressPattern(trimmed);
  if (pattern === undefined) return undefined;
  const [address] = trimmed.split('/');
  return trimmed.includes('/') ? `${address}/${pattern.bits}` : trimmed;
}

/** A valued condition's value as stored (canonical case), or undefined when the kind cannot match it. */
function storedValue(type: RedirectConditionType, text: string): string | undefined {
  switch (type) {
    case 'device':
      return (RULE_DEVICES as readonly string[]).includes(text.toLowerCase()) ? text.toLowerCase() : undefined;
    case 'browser':
      return (RULE_BROWSERS as readonly string[]).includes(text.toLowerCase()) ? text.toLowerCase() : undefined;
    case 'language':
      return LANGUAGE_TAG.test(text) ? text : undefined;
    case 'geolocation-country-code':
      return COUNTRY.test(text) ? text.toUpperCase() : undefined;
    case 'before-date':
    case 'after-date': {
      const at = parseIsoDateTime(text);
      return at === undefined ? undefined : new Date(at).toISOString();
    }
    case 'ip-address':
      return ipConditionValue(text);
    default:
      return text;
  }
}

/**
 * The one rule of what a redirect condition is (SPEC "Link rules and limits"), for every API that
 * sets rules: its kind, its query parameter's name, and a value the kind can match, all trimmed.
 * Each API maps its own body onto {@link ConditionInput} and words a refusal its own way, so the
 * v1 API, the Shlink API and the web app take the same conditions.
 */
export function checkRedirectCondition(input: ConditionInput): ConditionCheck {
  const { type: rawType, key: rawKey, value: rawValue } = input;
  if (typeof rawType !== 'string' || !(REDIRECT_CONDITION_TYPES as readonly string[]).includes(rawType)) {
    return { refusal: { reason: 'type' } };
  }
  const type = rawType as RedirectConditionType;
  const condition: RedirectCondition = { type };
  if (isKeyedCondition(type)) {
    const problem = typeof rawKey === 'string' ? queryKeyProblem(rawKey) : 'key-missing';
    if (problem !== undefined) return { refusal: { reason: problem, type } };
    condition.key = (rawKey as string).trim();
  } else if (given(rawKey)) {
    return { refusal: { reason: 'key-not-taken', type } };
  }
  if (isValuelessCondition(type)) {
    return given(rawValue) ? { refusal: { reason: 'value-not-taken', type } } : { condition };
  }
  if (typeof rawValue !== 'string') return { refusal: { reason: 'value-missing', type } };
  const text = rawValue.trim();
  if (text === '') return { refusal: { reason: 'value-blank', type } };
  if (type === 'query-param' && text.length > MAX_PARAM_LENGTH) return { refusal: { reason: 'value-too-long', type } };
  const value = storedValue(type, text);
  if (value === undefined) return { refusal: { reason: 'value-invalid', type } };
  condition.value = value;
  return { condition };
}
