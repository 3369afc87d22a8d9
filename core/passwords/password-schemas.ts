import type { ApiResponseSpec } from '../api-docs/api-operation.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-hasher.js';

const LENGTH = `${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`;

/** A password as a request gives it (never as an answer shows it: answers have none). */
const passwordString = { type: 'string', minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH };

/** `password_protected` in every link view: the one thing any answer says of a password. */
export const PASSWORD_PROTECTED_SCHEMA = {
  type: 'boolean',
  description: 'The short URL asks for a password (the password itself is never shown).',
};

/** `password` in a PATCH: a new one, or `null` to remove it (`""` is refused: it says to send `null`). */
export const PASSWORD_PATCH_SCHEMA = {
  type: ['string', 'null'],
  minLength: MIN_PASSWORD_LENGTH,
  maxLength: MAX_PASSWORD_LENGTH,
  description: `A new password (${LENGTH}) the short URL then asks for; null removes it ("" is refused).`,
};

/** A v1 create's `password` (the legacy dialect takes no password). */
export const PASSWORD_CREATE_SCHEMA = {
  anyOf: [passwordString, { enum: ['', null] }],
  description: `${LENGTH}: the short URL then asks for it (stored as a salted slow hash, never shown). Absent, null or "": none.`,
};

/** The v1 create's `password` entry of the API description. */
export const PASSWORD_PARAMETER = {
  name: 'password',
  type: 'string',
  required: false,
  rules: `${LENGTH} (code points). The short URL then asks for it: a browser gets a form, other clients send X-Link-Password. Stored as a salted slow hash; no answer ever shows it.`,
};

/** What a short URL answers besides 302/404/410 when its link has a password. */
export function passwordShortUrlAnswers(): Record<number, ApiResponseSpec> {
  return {
    200: {
      description:
        'The link has a password and none was sent: a browser gets a page whose form POSTs `password` to this short URL.',
      page: true,
    },
    401: {
      description:
        'The link has a password: none was sent (send it as `X-Link-Password`), or it is wrong. A browser gets the form again.',
      schema: 'Error',
      page: true,
    },
    429: {
      description: 'More than 5 password tries a minute from this client for this link.',
      schema: 'Error',
      page: true,
      headers: { 'Retry-After': 'Seconds to wait before trying again.' },
    },
  };
}
