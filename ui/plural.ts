import type { MessageKey, Translate } from './i18n.js';

/** The two forms a count's message has in the catalogs: "1 link" and "2 links" (Korean needs one). */
export interface PluralKeys {
  one: MessageKey;
  other: MessageKey;
}

/**
 * A count in words that agree with it ("1 link", "2 links"), chosen by `Intl.PluralRules` for
 * the page's language rather than by `count === 1`, and the number written as that language
 * writes it. `$1` is the count; further substitutions follow it as `$2`….
 */
export function plural(t: Translate, language: string, count: number, keys: PluralKeys, ...more: string[]): string {
  const form = new Intl.PluralRules(language).select(count) === 'one' ? keys.one : keys.other;
  return t(form, [new Intl.NumberFormat(language).format(count), ...more]);
}
