import { LinkletError } from '../../http/errors.js';
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
import { parseShlinkDate } from './shlink-dates.js';
import { invalidData } from './shlink-problem.js';
import { asShlinkField } from './short-url-fields.js';

/** The most conditions one rule holds (the v1 API's bound too). */
export const MAX_RULE_CONDITIONS = 10;

/** A condition as Shlink writes it: every member present, `null` where the type has none. */
export interface ShlinkRedirectCondition {
  type: RedirectConditionType;
  matchKey: string | null;
  matchValue: string | null;
}

/** Shlink's `GET /short-urls/{shortCode}/redirect-rules` answer. */
export interface ShlinkRedirectRules {
  defaultLongUrl: string;
  redirectRules: Array<{ longUrl: string; priority: number; conditions: ShlinkRedirectCondition[] }>;
}

/** The kinds whose condition names a query parameter (`matchKey`). */
const KEYED = new Set<RedirectConditionType>(['query-param', 'any-value-query-param', 'valueless-query-param']);
/** The kinds that match the parameter's presence alone, with no `matchValue`. */
const VALUELESS = new Set<RedirectConditionType>(['any-value-query-param', 'valueless-query-param']);

/** A link's rules as Shlink lists them: in order, `priority` counting from 1. */
export function toShlinkRedirectRules(
  defaultLongUrl: string,
  rules: readonly RedirectRule[] = [],
): ShlinkRedirectRules {
  return {
    defaultLongUrl,
    redirectRules: rules.map((rule, i) => ({
      longUrl: rule.targetUrl,
      priority: i + 1,
      conditions: rule.conditions.map((condition) => ({
        type: condition.type,
        matchKey: condition.key ?? null,
        matchValue: condition.value ?? null,
      })),
    })),
  };
}

const LANGUAGE = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const COUNTRY = /^[A-Za-z]{2}$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^[0-9A-Fa-f:.]+$/;

/** Whether text is an IPv6 address (the URL parser's rule, which every runtime shares). */
function isIpv6(text: string): boolean {
  if (!IPV6.test(text) || !text.includes(':')) return false;
  try {
    return new URL(`http://[${text}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/** An IP address or CIDR block (`192.168.0.0/16`, `2001:db8::/32`), as written; undefined when it is neither. */
export function parseIpCondition(text: string): string | undefined {
  const [address = '', bits, extra] = text.split('/');
  if (extra !== undefined) return undefined;
  const v4 = IPV4.test(address);
  if (!v4 && !isIpv6(address)) return undefined;
  if (bits === undefined) return address;
  const max = v4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max ? `${address}/${Number(bits)}` : undefined;
}

/** Runs a field's rule for the rule at `where`, its refusal naming `redirectRules` and saying which rule. */
function forRule<T>(where: string, parse: () => T): T {
  try {
    return asShlinkField('redirectRules', parse);
  } catch (error) {
    if (!(error instanceof LinkletError) || error.kind !== 'invalid') throw error;
    throw invalidData(['redirectRules'], `${where}: ${error.message}`);
  }
}

/** One condition from a Shlink body, checked and in Linklet's form; `where` names it in the detail. */
function parseCondition(value: unknown, where: string): RedirectCondition {
  const refuse = (detail: string) => invalidData(['redirectRules'], `${where}: ${detail}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refuse('each condition must be an object such as {"type":"device","matchKey":null,"matchValue":"android"}.');
  }
  const { type, matchKey, matchValue } = value as Record<string, unknown>;
  if (typeof type !== 'string' || !(REDIRECT_CONDITION_TYPES as readonly string[]).includes(type)) {
    throw refuse(`type must be one of ${REDIRECT_CONDITION_TYPES.join(', ')}.`);
  }
  const kind = type as RedirectConditionType;
  const condition: RedirectCondition = { type: kind };
  if (KEYED.has(kind)) {
    if (typeof matchKey !== 'string' || matchKey.trim() === '') {
      throw refuse(`a ${kind} condition needs matchKey: the query parameter's name.`);
    }
    condition.key = matchKey.trim();
  }
  if (VALUELESS.has(kind)) return condition;
  const text = typeof matchValue === 'string' ? matchValue.trim() : '';
  if (text === '') throw refuse(`a ${kind} condition needs matchValue.`);
  const among = (names: readonly string[], what: string) => {
    const lower = text.toLowerCase();
    if (!names.includes(lower)) throw refuse(`${what} must be one of ${names.join(', ')}.`);
    return lower;
  };
  switch (kind) {
    case 'device':
      condition.value = among(RULE_DEVICES, 'a device');
      break;
    case 'browser':
      condition.value = among(RULE_BROWSERS, 'a browser');
      break;
    case 'language':
      if (!LANGUAGE.test(text)) throw refuse('matchValue must be a language such as en or ko-KR.');
      condition.value = text;
      break;
    case 'geolocation-country-code':
      if (!COUNTRY.test(text)) throw refuse('matchValue must be a two-letter country code such as KR.');
      condition.value = text.toUpperCase();
      break;
    case 'before-date':
    case 'after-date':
      condition.value = new Date(forRule(where, () => parseShlinkDate(text, 'matchValue'))).toISOString();
      break;
    case 'ip-address': {
      const ip = parseIpCondition(text);
      if (ip === undefined) throw refuse('matchValue must be an IP address or a CIDR block such as 192.168.0.0/16.');
      condition.value = ip;
      break;
    }
    default:
      condition.value = text;
  }
  return condition;
}

/**
 * The rules of a Shlink `POST`/`PATCH /short-urls/{shortCode}/redirect-rules` body, in order
 * (Shlink's `priority` is their order): at most 20, each a `longUrl` by the create rules and 1–10
 * conditions of Linklet's kinds. A refusal is Shlink's `invalid-data` naming `redirectRules`,
 * its detail saying which rule and condition and what is accepted.
 */
export function parseShlinkRedirectRules(value: unknown, urlRules: OriginalUrlRules): RedirectRule[] {
  if (!Array.isArray(value)) {
    throw invalidData(
      ['redirectRules'],
      'redirectRules must be a list such as [{"longUrl":"https://example.com/android","conditions":[{"type":"device","matchKey":null,"matchValue":"android"}]}].',
    );
  }
  if (value.length > MAX_REDIRECT_RULES) {
    throw invalidData(
      ['redirectRules'],
      `A short URL has at most ${MAX_REDIRECT_RULES} redirect rules; this has ${value.length}.`,
    );
  }
  return value.map((item, i) => {
    const where = `redirectRules[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw invalidData(['redirectRules'], `${where} must be an object with longUrl and conditions.`);
    }
    const { longUrl, conditions } = item as Record<string, unknown>;
    if (typeof longUrl !== 'string')
      throw invalidData(['redirectRules'], `${where}.longUrl is required: where it sends.`);
    const targetUrl = forRule(where, () => parseOriginalUrl(longUrl, urlRules));
    if (!Array.isArray(conditions) || conditions.length === 0 || conditions.length > MAX_RULE_CONDITIONS) {
      throw invalidData(
        ['redirectRules'],
        `${where}.conditions must be a list of 1 to ${MAX_RULE_CONDITIONS} conditions.`,
      );
    }
    return {
      targetUrl,
      conditions: conditions.map((condition, j) => parseCondition(condition, `${where}.conditions[${j}]`)),
    };
  });
}
