import { invalid, type LinkletError } from '../../http/errors.js';
import {
  CONDITION_CHOICES,
  type ConditionRefusal,
  checkRedirectCondition,
  MAX_PARAM_LENGTH,
} from '../../rules/redirect-condition-check.js';
import {
  REDIRECT_CONDITION_TYPES,
  type RedirectCondition,
  type RedirectConditionType,
} from '../../rules/redirect-rule.js';

/** What a v1 condition's `value` must be, by kind, as its refusal says it. */
const VALUE_WANTED: Record<RedirectConditionType, string> = {
  device: `one of ${CONDITION_CHOICES.device.join(', ')}`,
  browser: `one of ${CONDITION_CHOICES.browser.join(', ')}`,
  language: 'a language tag such as ko or ko-KR',
  'query-param': `the value to match (1 to ${MAX_PARAM_LENGTH} characters); for any value use any-value-query-param`,
  'any-value-query-param': 'left out',
  'valueless-query-param': 'left out',
  'geolocation-country-code': 'a two-letter ISO 3166 country code such as KR',
  'before-date': 'an ISO 8601 date-time such as 2026-12-01T09:00:00Z',
  'after-date': 'an ISO 8601 date-time such as 2026-12-01T09:00:00Z',
  'ip-address': 'an IP address or CIDR block such as 192.0.2.0/24',
};

/** The core's refusal in the v1 API's words (Linklet's 400), naming the condition at `field`. */
function v1Refusal(refusal: ConditionRefusal, field: string): LinkletError {
  if (refusal.reason === 'type') {
    return invalid(`${field}.type must be one of ${REDIRECT_CONDITION_TYPES.join(', ')}.`);
  }
  const { type } = refusal;
  switch (refusal.reason) {
    case 'key-missing':
    case 'key-too-long':
      return invalid(`${field}.key must be the query parameter's name (1 to ${MAX_PARAM_LENGTH} characters).`);
    case 'key-not-taken':
      return invalid(`${field}.key is only for query parameter conditions; leave it out for ${type}.`);
    case 'value-not-taken':
      return invalid(`${field} (${type}) takes a key and no value.`);
    case 'value-missing':
      return invalid(`${field}.value must be a string (${type}).`);
    case 'value-too-long':
      return invalid(`${field}.value must be at most ${MAX_PARAM_LENGTH} characters.`);
    default:
      return invalid(`${field}.value must be ${VALUE_WANTED[type]}.`);
  }
}

/**
 * One condition of a v1 body (`{"type","key","value"}`) as stored, or a 400 naming `field` and
 * what it accepts. What a condition may be is the core's rule, shared with the Shlink API.
 */
export function parseLinkRuleCondition(raw: unknown, field: string): RedirectCondition {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid(`${field} must be an object such as {"type":"device","value":"android"}.`);
  }
  const { type, key, value } = raw as Record<string, unknown>;
  const checked = checkRedirectCondition({ type, key, value });
  if ('refusal' in checked) throw v1Refusal(checked.refusal, field);
  return checked.condition;
}
