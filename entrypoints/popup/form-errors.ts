import { t } from '../../extension/i18n.js';
import { backgroundErrorField, backgroundErrorSentence } from '../../ui/background-error-sentence.js';
import { hideResult } from './result-view.js';

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;

/** Each error kind in the popup's language, never the API's English (ui/background-error-sentence.ts). */
export const messageOf = (error: unknown) => backgroundErrorSentence(t, error);

/** The form fields an error can be about, each marked invalid while its error shows. */
const FIELD_INPUTS = { url: '#url', code: '#code' } as const;

/** Shows `message` in the popup's alert (none hides it); no field stays marked by an earlier one. */
export function showError(message: string | undefined): void {
  $('#error').textContent = message ?? '';
  $('#error').hidden = !message;
  // Any new message (or none) is no longer about a field: take back the invalid marks.
  for (const selector of Object.values(FIELD_INPUTS)) {
    $(selector).removeAttribute('aria-invalid');
    $(selector).removeAttribute('aria-describedby');
  }
}

/** Says what is wrong with the URL or the custom code, with that field marked invalid, described by it and focused. */
export function showFieldError(field: keyof typeof FIELD_INPUTS, message: string): void {
  // The previous link and its QR code would read as this attempt's answer.
  hideResult();
  showError(message);
  const input = $(FIELD_INPUTS[field]);
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', 'error');
  input.focus();
}

/** A failed shorten: beside its field when it is about the URL or the code (taken, reserved, …). */
export function showShortenError(error: unknown): void {
  const field = backgroundErrorField(error);
  if (field === 'url' || field === 'code') showFieldError(field, messageOf(error));
  else showError(messageOf(error));
}
