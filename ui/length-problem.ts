import { MAX_TITLE_LENGTH, normalizeTitle, titleLength } from '../core/management/links/link-labels.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordLength } from '../core/passwords/password-hasher.js';
import { codeLength, MAX_CODE_LENGTH } from '../core/rules/code.js';
import type { Translate } from './i18n.js';

/** The fields whose length the core limits, in characters (code points) rather than UTF-16 units. */
export type LimitedField = 'code' | 'title' | 'password';

/**
 * What is wrong with the length of a typed value, in the page's language, or undefined when it
 * fits. The fields carry no `maxlength`: the browser would count UTF-16 units and silently cut an
 * emoji title or a code pasted as decomposed Hangul that the server accepts, losing what was typed.
 * So the screens count here instead, with the core's own functions and limits, and can never
 * disagree with the server (which still checks, and stays the authority).
 *
 * An empty code or title is none (both are optional); an empty password is too short, so a form
 * where the password is optional skips the check for ''.
 */
export function lengthProblem(t: Translate, field: LimitedField, value: string): string | undefined {
  if (field === 'code') {
    // Counted after NFC, as the server keeps it: 30 syllables pasted as 75 jamo are 30 characters.
    const length = codeLength(value);
    return length > MAX_CODE_LENGTH ? t('errCodeTooLong', [String(MAX_CODE_LENGTH), String(length)]) : undefined;
  }
  if (field === 'title') {
    // Spaces around a title are dropped by the server, so they do not count against it.
    const length = titleLength(normalizeTitle(value));
    return length > MAX_TITLE_LENGTH ? t('errTitleTooLong', [String(MAX_TITLE_LENGTH), String(length)]) : undefined;
  }
  const length = passwordLength(value);
  const fits = length >= MIN_PASSWORD_LENGTH && length <= MAX_PASSWORD_LENGTH;
  return fits ? undefined : t('errorPasswordLength', [String(MIN_PASSWORD_LENGTH), String(MAX_PASSWORD_LENGTH)]);
}
