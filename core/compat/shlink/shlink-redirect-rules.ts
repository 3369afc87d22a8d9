import { LinkletError } from '../../http/errors.js';
import { ipConditionValue } from '../../rules/redirect-condition-check.js';
import {
  MAX_REDIRECT_RULES,
  MAX_RULE_CONDITIONS,
  type RedirectConditionType,
  type RedirectRule,
} from '../../rules/redirect-rule.js';
import { type OriginalUrlRules, parseOriginalUrl } from '../../rules/url.js';
import { invalidData } from './shlink-problem.js';
import { parseShlinkCondition } from './shlink-rule-condition.js';
import { asShlinkField } from './short-url-fields.js';

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

/**
 * An IP address or CIDR block (`192.168.0.0/16`, `2001:db8::/32`) as stored; undefined when it is
 * neither. The core's rule, which the v1 API and the redirect's matcher share.
 */
export const parseIpCondition = ipConditionValue;

/** Runs a field's rule for the rule at `where`, its refusal naming `redirectRules` and saying which rule. */
function forShlinkRule<T>(where: string, parse: () => T): T {
  try {
    return asShlinkField('redirectRules', parse);
  } catch (error) {
    if (!(error instanceof LinkletError) || error.kind !== 'invalid') throw error;
    throw invalidData(['redirectRules'], `${where}: ${error.message}`);
  }
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
    const targetUrl = forShlinkRule(where, () => parseOriginalUrl(longUrl, urlRules));
    if (!Array.isArray(conditions) || conditions.length === 0 || conditions.length > MAX_RULE_CONDITIONS) {
      throw invalidData(
        ['redirectRules'],
        `${where}.conditions must be a list of 1 to ${MAX_RULE_CONDITIONS} conditions.`,
      );
    }
    return {
      targetUrl,
      conditions: conditions.map((condition, j) => parseShlinkCondition(condition, `${where}.conditions[${j}]`)),
    };
  });
}
