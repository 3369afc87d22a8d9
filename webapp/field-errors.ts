import { byId, showError } from '../ui/dom.js';
import type { ErrorField } from '../ui/error-sentence.js';

/** The shorten form's fields and the paragraph under each that says what is wrong with it. */
const FIELDS = {
  url: ['url', 'url-error'],
  code: ['code', 'code-error'],
  password: ['password', 'password-error'],
} as const;

/**
 * Shows `text` in the field's error paragraph and marks the field invalid, described by that
 * paragraph, and focused: a screen reader says what is wrong where the person will type again.
 * Every form's field errors go through here so they all read the same way.
 */
export function showFieldError(input: HTMLInputElement, message: HTMLElement, text: string): void {
  showError(message, text);
  input.setAttribute('aria-invalid', 'true');
  const described = describedBy(input);
  if (message.id !== '' && !described.includes(message.id)) setDescribedBy(input, [...described, message.id]);
  input.focus();
}

/**
 * Hides a field's error and takes back its invalid mark and description, so the next try starts
 * clean (a form's one error paragraph may next say something about another field).
 */
export function clearFieldError(input: HTMLElement, message: HTMLElement): void {
  showError(message, '');
  input.removeAttribute('aria-invalid');
  setDescribedBy(
    input,
    describedBy(input).filter((id) => id !== message.id),
  );
}

function describedBy(input: HTMLElement): string[] {
  return (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id !== '');
}

function setDescribedBy(input: HTMLElement, ids: string[]): void {
  if (ids.length === 0) input.removeAttribute('aria-describedby');
  else input.setAttribute('aria-describedby', ids.join(' '));
}

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
  showFieldError(byId<HTMLInputElement>(pair[0]), byId(pair[1]), text);
}

/** Hides every error of the shorten form. */
export function clearShortenErrors(): void {
  showError(byId('shorten-error'), '');
  for (const [input, message] of Object.values(FIELDS)) clearFieldError(byId(input), byId(message));
}
