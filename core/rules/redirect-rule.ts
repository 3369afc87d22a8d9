/**
 * The kinds of condition a redirect rule can hold (SPEC "Link rules and limits"). The names are
 * Shlink's, so its API and clients carry them unchanged.
 */
export const REDIRECT_CONDITION_TYPES = [
  'device',
  'browser',
  'language',
  'query-param',
  'any-value-query-param',
  'valueless-query-param',
  'geolocation-country-code',
  'before-date',
  'after-date',
  'ip-address',
] as const;

export type RedirectConditionType = (typeof REDIRECT_CONDITION_TYPES)[number];

/** The devices a `device` condition names (Shlink's values). */
export const RULE_DEVICES = ['android', 'ios', 'mobile', 'desktop', 'windows', 'macos', 'linux', 'chromeos'] as const;
/** The browsers a `browser` condition names. */
export const RULE_BROWSERS = ['chrome', 'firefox', 'edge', 'safari', 'opera'] as const;

/** A link holds at most this many rules, so no link carries an unbounded list into every redirect. */
export const MAX_REDIRECT_RULES = 20;
/** A rule holds at least one condition and at most this many (SPEC: each 1–10), in every API. */
export const MAX_RULE_CONDITIONS = 10;

/**
 * One condition of a rule. `key` is the query parameter's name (the three query kinds only);
 * `value` is what is matched: a device, browser, language tag, parameter value, ISO 3166 country
 * code, ISO date (`before-date`/`after-date`) or an IP address/CIDR. Kinds without a value
 * (`any-value-query-param`, `valueless-query-param`) leave it out.
 */
export interface RedirectCondition {
  type: RedirectConditionType;
  key?: string;
  value?: string;
}

/** Where a visit goes when every one of `conditions` holds (at least one). */
export interface RedirectRule {
  targetUrl: string;
  conditions: RedirectCondition[];
}
