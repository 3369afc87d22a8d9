import { invalid } from '../http/errors.js';
import { characterCount } from './character-count.js';

/** The longest custom code, in characters (code points) after NFC: see `codeLength`. */
export const MAX_CODE_LENGTH = 64;

/**
 * First path segments the service serves itself, plus words kept back for later pages. A custom
 * code equal to one of them (in any ASCII case) would shadow a route, so it is refused.
 */
export const RESERVED_CODES: ReadonlySet<string> = new Set([
  'api',
  'api.php',
  'health',
  'favicon.svg', // core/site/favicon.ts; a dot can never be in a code anyway
  'favicon.ico', // core/site/favicon-ico.ts; likewise
  'sw.js', // core/site/web-app-shell.ts; likewise
  'manifest.webmanifest', // likewise
  'admin',
  'assets',
  'static',
  'docs',
  'login',
  'www',
]);

const HANGUL_FILLERS = new Set([0x115f, 0x1160, 0x3164, 0xffa0]);

/** Whether a code point may appear in a submitted custom code (docs/api.md, "The rules, in short"), before NFC. */
export function isAllowedCodePoint(cp: number): boolean {
  if (HANGUL_FILLERS.has(cp)) return false;
  return (
    (cp >= 0xac00 && cp <= 0xd7a3) || // Hangul syllables
    (cp >= 0x1100 && cp <= 0x11ff) || // conjoining jamo: NFC must compose them, checked below
    (cp >= 0x3131 && cp <= 0x318e) || // compatibility jamo
    (cp >= 0x30 && cp <= 0x39) ||
    (cp >= 0x41 && cp <= 0x5a) ||
    (cp >= 0x61 && cp <= 0x7a) ||
    cp === 0x5f || // _
    cp === 0x2d // -
  );
}

function isConjoiningJamo(cp: number): boolean {
  return cp >= 0x1100 && cp <= 0x11ff;
}

function describe(cp: number): string {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const printable = cp > 0x20 && cp !== 0x7f && !(cp >= 0x80 && cp <= 0x9f);
  return printable ? `'${String.fromCodePoint(cp)}' (${hex})` : hex;
}

/**
 * A code's length as the rule counts it: code points after NFC, so a Hangul syllable typed or
 * pasted as two or three conjoining jamo (NFD) is one character, as it is once stored. Exported so
 * the screens count exactly as the server does before they send a code.
 */
export function codeLength(raw: string): number {
  return characterCount(raw.normalize('NFC'));
}

/**
 * Checks a custom code and returns its normalized (NFC) form, which is the code itself.
 *
 * Characters are checked before normalization too: NFC silently turns look-alikes such as the
 * Kelvin sign into allowed letters, and checking only the result would accept them.
 */
export function normalizeCustomCode(raw: string): string {
  for (const ch of raw) {
    const cp = ch.codePointAt(0) ?? 0;
    if (!isAllowedCodePoint(cp)) {
      throw invalid(`custom_code may only contain Hangul, ASCII letters, digits, '_' and '-'; found ${describe(cp)}.`);
    }
  }
  const code = raw.normalize('NFC');
  for (const ch of code) {
    const cp = ch.codePointAt(0) ?? 0;
    if (isConjoiningJamo(cp)) {
      throw invalid(
        `custom_code has Hangul jamo that do not form a syllable (${describe(cp)}); use complete syllables or compatibility jamo.`,
      );
    }
  }
  const length = codeLength(code);
  if (length < 1 || length > MAX_CODE_LENGTH) {
    throw invalid(`custom_code must be 1 to ${MAX_CODE_LENGTH} characters long; it has ${length}.`);
  }
  if (RESERVED_CODES.has(codeKey(code))) {
    throw invalid(`custom_code '${code}' is reserved by the service; choose another code.`);
  }
  return code;
}

/**
 * The identity of a code: NFC, with ASCII letters lower-cased (`Promo` and `promo` are one code,
 * while Hangul and other letters are left as they are). Stores index links by this key.
 */
export function codeKey(code: string): string {
  return code.normalize('NFC').replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * A code the core's own rules accept, as every Linklet backend's codes are: what a client checks a
 * server's reply or a history file against before it keeps a code.
 */
export function isValidCode(code: string): boolean {
  try {
    normalizeCustomCode(code);
    return true;
  } catch {
    return false;
  }
}
