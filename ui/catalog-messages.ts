import en from '../public/_locales/en/messages.json' with { type: 'json' };
import ko from '../public/_locales/ko/messages.json' with { type: 'json' };
import type { MessageSource } from './i18n.js';

type Catalog = Record<string, { message: string }>;

const CATALOGS: Record<string, Catalog> = { en, ko };

/** The first of the user's languages there is a catalog for (Korean or English), else English. */
function pickLanguage(preferred: readonly string[]): string {
  for (const tag of preferred) {
    const language = tag.toLowerCase().split('-')[0] ?? '';
    if (language in CATALOGS) return language;
  }
  return 'en';
}

/** `$1`…`$9` filled in, `$$` a dollar sign: what `browser.i18n.getMessage` does with a catalog. */
function fill(message: string, substitutions: string[]): string {
  return message.replace(/\$(\$|[1-9])/g, (_, which: string) =>
    which === '$' ? '$' : (substitutions[Number(which) - 1] ?? ''),
  );
}

/**
 * The extension's own catalogs (public/_locales) as a message source for pages outside the
 * extension, so the web app speaks with the same words and one translation serves both. A key
 * missing from the chosen language falls back to English, as the extension's does.
 */
export function catalogMessages(preferred: readonly string[]): MessageSource {
  const language = pickLanguage(preferred);
  const catalog = CATALOGS[language] as Catalog;
  return {
    getUILanguage: () => language,
    getMessage(key, substitutions) {
      const entry = catalog[key] ?? (en as Catalog)[key];
      if (entry === undefined) return '';
      return fill(entry.message, typeof substitutions === 'string' ? [substitutions] : (substitutions ?? []));
    },
  };
}
