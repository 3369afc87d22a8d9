import type { RULE_BROWSERS, RULE_DEVICES } from '../core/rules/redirect-rule.js';
import type { MessageKey, Translate } from '../ui/i18n.js';
import type { RedirectRuleBody, RuleConditionBody } from './rule-shapes.js';

type Device = (typeof RULE_DEVICES)[number];
type Browser = (typeof RULE_BROWSERS)[number];

/** Who a device condition sends: the subject of the rule's sentence ("Android phones go to …"). */
const DEVICE_SUBJECTS = {
  android: 'ruleDeviceAndroid',
  ios: 'ruleDeviceIos',
  mobile: 'ruleDeviceMobile',
  desktop: 'ruleDeviceDesktop',
  windows: 'ruleDeviceWindows',
  macos: 'ruleDeviceMacos',
  linux: 'ruleDeviceLinux',
  chromeos: 'ruleDeviceChromeos',
} as const satisfies Record<Device, MessageKey>;

/** A browser condition as a phrase ("using Chrome"; Korean needs its own particle for each name). */
const BROWSER_PHRASES = {
  chrome: 'ruleBrowserChrome',
  firefox: 'ruleBrowserFirefox',
  edge: 'ruleBrowserEdge',
  safari: 'ruleBrowserSafari',
  opera: 'ruleBrowserOpera',
} as const satisfies Record<Browser, MessageKey>;

/** What a value not typed yet shows as in a sentence, so the sentence grows while the person types. */
const BLANK = '…';

/**
 * A rule as one sentence a person reads without knowing the API: "Android phones from South Korea
 * (KR) go to https://…", "Visitors whose language is Korean go to …". The device (if any) is who
 * goes; every other condition narrows them. Korean puts the narrowing first and its particles are
 * part of each phrase, so no `(으)로`-style stand-in is ever needed.
 */
export function ruleSentence(t: Translate, language: string, rule: RedirectRuleBody): string {
  if (rule.conditions.length === 0) return t('ruleNoConditions');
  const device = rule.conditions.find((condition) => condition.type === 'device');
  const subject = isDevice(device?.value) ? t(DEVICE_SUBJECTS[device.value]) : t('ruleVisitors');
  const phrases = rule.conditions
    .filter((condition) => condition !== device)
    .map((condition) => conditionPhrase(t, language, condition));
  const joined = phrases.length === 0 ? '' : joinPhrases(language, phrases);
  const who = t('ruleWho', [subject, joined]).replace(/\s+/g, ' ').trim();
  const target = rule.target_url.trim();
  return target === '' ? t('ruleSentenceNoTarget', [who]) : t('ruleSentence', [who, target]);
}

/** One condition other than a device, as a phrase that narrows who goes ("whose language is Korean"). */
export function conditionPhrase(t: Translate, language: string, condition: RuleConditionBody): string {
  const key = condition.key?.trim() || BLANK;
  const value = condition.value?.trim() || BLANK;
  switch (condition.type) {
    case 'device':
      return isDevice(condition.value) ? t(DEVICE_SUBJECTS[condition.value]) : t('ruleVisitors');
    case 'browser':
      return isBrowser(condition.value) ? t(BROWSER_PHRASES[condition.value]) : t('ruleBrowserChrome');
    case 'language':
      return t('ruleLanguage', [displayName(language, 'language', value)]);
    case 'query-param':
      return t('ruleQueryValue', [key, value]);
    case 'any-value-query-param':
      return t('ruleQueryAny', [key]);
    case 'valueless-query-param':
      return t('ruleQueryValueless', [key]);
    case 'geolocation-country-code':
      return t('ruleCountry', [displayName(language, 'region', value.toUpperCase()), value.toUpperCase()]);
    case 'before-date':
      return t('ruleBefore', [dateWords(language, value)]);
    case 'after-date':
      return t('ruleAfter', [dateWords(language, value)]);
    case 'ip-address':
      return value.includes('/') ? t('ruleIpRange', [value]) : t('ruleIpOne', [value]);
  }
}

/** "a, b and c" in English; Korean stacks its phrases (each ends in a modifier) with commas. */
function joinPhrases(language: string, phrases: string[]): string {
  if (language.startsWith('ko')) return phrases.join(', ');
  return new Intl.ListFormat(language, { type: 'conjunction' }).format(phrases);
}

/** A language or country name in the page's language ("Korean", "한국어"), or the code itself. */
function displayName(language: string, type: 'language' | 'region', code: string): string {
  if (code === BLANK) return BLANK;
  try {
    return new Intl.DisplayNames(language, { type, fallback: 'code' }).of(code) ?? code;
  } catch {
    return code; // not a well-formed tag: the person sees what they typed
  }
}

/** A date as people write it (with the time when it is not midnight), in the browser's zone. */
function dateWords(language: string, iso: string): string {
  const at = new Date(iso);
  if (iso === BLANK || Number.isNaN(at.getTime())) return BLANK;
  const midnight = at.getHours() === 0 && at.getMinutes() === 0;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', ...(!midnight && { timeStyle: 'short' }) }).format(
    at,
  );
}

function isDevice(value: string | undefined): value is Device {
  return value !== undefined && value in DEVICE_SUBJECTS;
}

function isBrowser(value: string | undefined): value is Browser {
  return value !== undefined && value in BROWSER_PHRASES;
}
