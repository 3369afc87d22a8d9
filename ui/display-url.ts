/**
 * Scripts told apart when deciding whether a host mixes them. Letters of any other script count
 * as one more script, so mixing them with Latin is caught too; digits, `-` and other Common or
 * Inherited characters belong to every script.
 */
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Cherokee',
  'Hebrew',
  'Arabic',
  'Thai',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Bopomofo',
] as const;
type Script = (typeof SCRIPTS)[number] | 'Other';

const SCRIPT_PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`\\p{Script=${script}}`, 'u')] as const);
const SHARED = /[\p{Script=Common}\p{Script=Inherited}]/u;

/**
 * Mixes Unicode allows in one identifier ("highly restrictive", Unicode TS #39): Latin with the
 * scripts a Japanese, Chinese or Korean name is written in. Any other mix is what a homograph
 * (a Cyrillic `а` in `аpple.com`, a Cyrillic name under `.com`) looks like.
 */
const ALLOWED_MIXES: ReadonlySet<Script>[] = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

function scriptsOf(host: string): Set<Script> {
  const found = new Set<Script>();
  for (const char of host) {
    if (SHARED.test(char)) continue;
    found.add(SCRIPT_PATTERNS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'Other');
  }
  return found;
}

/** Whether a host (its Unicode form) mixes scripts in a way no single language writes. */
export function mixesScripts(host: string): boolean {
  const scripts = scriptsOf(host);
  if (scripts.size <= 1) return false;
  return !ALLOWED_MIXES.some((allowed) => [...scripts].every((script) => allowed.has(script)));
}

/**
 * A target URL as the popup shows it: as the user submitted it, except that a host mixing
 * scripts is shown in its punycode (`xn--`) form, as browsers show it in the address bar, so
 * `аpple.com` with a Cyrillic `а` cannot pass for `apple.com`.
 */
export function displayUrl(url: string): string {
  const match = /^(https?:\/\/)([^/?#\\]*)(.*)$/isu.exec(url);
  if (!match || !URL.canParse(url)) return url;
  const [, scheme = '', authority = '', rest = ''] = match;
  const host = authority.replace(/:\d*$/, '');
  if (!mixesScripts(safeDecode(host))) return url;
  return `${scheme}${new URL(url).host}${rest}`;
}

/** A percent-encoded host is read as the parser reads it; one that does not decode is shown encoded. */
function safeDecode(host: string): string {
  try {
    return decodeURIComponent(host);
  } catch {
    return host;
  }
}
