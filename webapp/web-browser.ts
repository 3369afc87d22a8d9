import en from '../public/_locales/en/messages.json';
import ko from '../public/_locales/ko/messages.json';

type Catalog = Record<string, { message: string }>;

const CATALOGS: Record<string, Catalog> = { en, ko };

/** The UI language: Korean when the browser prefers it, else English (the catalogs' default). */
function pickLanguage(): string {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const language = tag.toLowerCase().split('-')[0] ?? '';
    if (language in CATALOGS) return language;
  }
  return 'en';
}

const language = pickLanguage();
const catalog = CATALOGS[language] as Catalog;

/** `$1`…`$9` filled in, `$$` a dollar sign: what `browser.i18n.getMessage` does with a catalog. */
function fill(message: string, substitutions: string[]): string {
  return message.replace(/\$(\$|[1-9])/g, (_, which: string) =>
    which === '$' ? '$' : (substitutions[Number(which) - 1] ?? ''),
  );
}

/**
 * What the web app's build gives modules that import `wxt/browser` (vite.webapp.config.ts): the
 * part of `browser.i18n` the extension's UI modules use, answered from the same catalogs as the
 * extension's (public/_locales), so labels, dates and messages are one code and one translation.
 */
export const browser = {
  i18n: {
    getUILanguage: (): string => language,
    getMessage(key: string, substitutions?: string | string[]): string {
      const entry = catalog[key] ?? en[key as keyof typeof en];
      if (entry === undefined) return '';
      return fill(entry.message, typeof substitutions === 'string' ? [substitutions] : (substitutions ?? []));
    },
  },
};
