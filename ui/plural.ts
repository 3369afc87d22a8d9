import type { MessageKey, Translate } from './i18n.js';

/**
 * A count in words that agree with it ("1 click", "2 clicks"): the language's plural rule
 * (`Intl.PluralRules`) picks the `one` message or the `other` one; Korean has only `other`.
 */
export function countText(
  t: Translate,
  language: string,
  count: number,
  keys: { one: MessageKey; other: MessageKey },
): string {
  const formatted = count.toLocaleString(language);
  return new Intl.PluralRules(language).select(count) === 'one' ? t(keys.one, formatted) : t(keys.other, formatted);
}
