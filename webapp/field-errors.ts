import { byId, showError } from '../ui/dom.js';
import type { ErrorField } from '../ui/error-sentence.js';

/** The shorten form's fields and the paragraph under each that says what is wrong with it. */
const FIELDS = {
  url: ['url', 'url-error'],
  code: ['code', 'code-error'],
  password: ['password', 'password-error'],
} as const;

/**
 * Shows a failure next to the field it is about (the long URL, the code), marked invalid for
 * screen readers and focused, or under Shorten when it is about no field. Clears the others: a
 * new attempt never leaves the last one's words on screen.
 */
export function showShortenError(field: ErrorField | 'password', text: string): void {
  clearShortenErrors();
  const pair = field === 'url' || field === 'code' || field === 'password' ? FIELDS[field] : undefined;
  if (pair === undefined) {
    showError(byId('shorten-error'), text);
    return;
  }
  const input = byId<HTMLInputElement>(pair[0]);
  showError(byId(pair[1]), text);
  input.setAttribute('aria-invalid', 'true');
  input.focus();
}

/** Hides every error of the shorten form. */
export function clearShortenErrors(): void {
  showError(byId('shorten-error'), '');
  for (const [input, message] of Object.values(FIELDS)) {
    showError(byId(message), '');
    byId(input).removeAttribute('aria-invalid');
  }
}
