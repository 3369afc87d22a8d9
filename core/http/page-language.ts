/** The languages Linklet's own pages speak. */
export type PageLanguage = 'en' | 'ko';

const SPOKEN: ReadonlySet<string> = new Set(['en', 'ko']);

let lastHeader: string | undefined;
let lastLanguage: PageLanguage = 'en';

/**
 * The language a visitor's browser asks for (`Accept-Language`), among those the pages speak:
 * the highest q-value wins (ties go to the first named), `ko-KR` counts as `ko`, `q=0` means
 * "not this one", and anything else (or no header) is English.
 */
export function pageLanguageOf(acceptLanguage: string | null | undefined): PageLanguage {
  if (!acceptLanguage) return 'en';
  // A browser sends the same header on every request: the last one's answer is kept.
  if (acceptLanguage === lastHeader) return lastLanguage;
  lastLanguage = languageOf(acceptLanguage);
  lastHeader = acceptLanguage;
  return lastLanguage;
}

function languageOf(acceptLanguage: string): PageLanguage {
  let best: PageLanguage = 'en';
  let bestQ = 0;
  for (const entry of acceptLanguage.split(',')) {
    const [range = '', ...parameters] = entry.split(';');
    const primary = range.trim().toLowerCase().split('-')[0] ?? '';
    if (!SPOKEN.has(primary)) continue;
    const q = qualityOf(parameters);
    if (q > bestQ) {
      best = primary as PageLanguage;
      bestQ = q;
    }
  }
  return best;
}

/** The `q` parameter, 0 to 1; 1 when absent, 0 when unreadable (a broken range is not a wish). */
function qualityOf(parameters: string[]): number {
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'q') continue;
    const q = Number(value.trim());
    return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
  }
  return 1;
}
