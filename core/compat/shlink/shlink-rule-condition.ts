import {
  CONDITION_CHOICES,
  type ConditionRefusal,
  checkRedirectCondition,
  isKeyedCondition,
  isValuelessCondition,
  MAX_PARAM_LENGTH,
} from '../../rules/redirect-condition-check.js';
import {
  REDIRECT_CONDITION_TYPES,
  type RedirectCondition,
  type RedirectConditionType,
} from '../../rules/redirect-rule.js';
import { invalidData, type ShlinkProblemError } from './shlink-problem.js';

/** What a Shlink condition's `matchValue` must be, by kind, as its refusal says it. */
const VALUE_WANTED: Partial<Record<RedirectConditionType, string>> = {
  device: `a device must be one of ${CONDITION_CHOICES.device.join(', ')}.`,
  browser: `a browser must be one of ${CONDITION_CHOICES.browser.join(', ')}.`,
  language: 'matchValue must be a language such as en or ko-KR.',
  'geolocation-country-code': 'matchValue must be a two-letter country code such as KR.',
  'before-date': 'matchValue must be an ISO 8601 date, such as 2026-11-26T10:00:00+00:00.',
  'after-date': 'matchValue must be an ISO 8601 date, such as 2026-11-26T10:00:00+00:00.',
  'ip-address': 'matchValue must be an IP address or a CIDR block such as 192.168.0.0/16.',
};

/** The core's refusal as Shlink's detail (after the condition's place). */
function shlinkDetail(refusal: ConditionRefusal): string {
  if (refusal.reason === 'type') return `type must be one of ${REDIRECT_CONDITION_TYPES.join(', ')}.`;
  const { type } = refusal;
  switch (refusal.reason) {
    case 'key-missing':
      return `a ${type} condition needs matchKey: the query parameter's name.`;
    case 'key-too-long':
      return `matchKey must be the query parameter's name, at most ${MAX_PARAM_LENGTH} characters.`;
    case 'key-not-taken':
      return `a ${type} condition takes no matchKey; send null.`;
    case 'value-not-taken':
      return `a ${type} condition takes no matchValue; send null.`;
    case 'value-missing':
    case 'value-blank':
      return `a ${type} condition needs matchValue.`;
    case 'value-too-long':
      return `matchValue must be at most ${MAX_PARAM_LENGTH} characters.`;
    default:
      return VALUE_WANTED[type] ?? `matchValue cannot be matched by a ${type} condition.`;
  }
}

// A date as Shlink's clients write it: a day alone, a space for `T`, no offset or `+hhmm`.
const SHLINK_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Shlink's spelling of a date as the ISO date-time with an offset the core takes (no time is
 * midnight, no offset UTC, as Linklet keeps every time); whether it is a real date the core decides.
 */
function isoSpelling(value: unknown): unknown {
  const parts = typeof value === 'string' ? SHLINK_DATE.exec(value.trim()) : null;
  if (parts === null) return value;
  const [, day, time = '00:00', offset = 'Z'] = parts;
  const colon = /^[+-]\d{4}$/.test(offset) ? `${offset.slice(0, 3)}:${offset.slice(3)}` : offset;
  return `${day}T${time}${colon}`;
}

/**
 * One condition of a Shlink body (`{type, matchKey, matchValue}`) as stored, or Shlink's
 * `invalid-data` naming `redirectRules`, its detail starting with `where`. The members a kind does
 * not use are ignored, as Shlink does (its clients send them as `null`); what a condition may be
 * is the core's rule, shared with the v1 API.
 */
export function parseShlinkCondition(raw: unknown, where: string): RedirectCondition {
  const refuse = (detail: string): ShlinkProblemError => invalidData(['redirectRules'], `${where}: ${detail}`);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw refuse('each condition must be an object such as {"type":"device","matchKey":null,"matchValue":"android"}.');
  }
  const { type, matchKey, matchValue } = raw as Record<string, unknown>;
  const kind = (REDIRECT_CONDITION_TYPES as readonly unknown[]).includes(type)
    ? (type as RedirectConditionType)
    : undefined;
  const keyed = kind !== undefined && isKeyedCondition(kind);
  const valued = kind !== undefined && !isValuelessCondition(kind);
  const dated = kind === 'before-date' || kind === 'after-date';
  const checked = checkRedirectCondition({
    type,
    key: keyed ? (matchKey ?? '') : undefined,
    value: valued ? (dated ? isoSpelling(matchValue) : matchValue) : undefined,
  });
  if ('refusal' in checked) throw refuse(shlinkDetail(checked.refusal));
  return checked.condition;
}
