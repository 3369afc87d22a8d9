import { toBase64Url } from '../rules/base64url.js';

/** Random bytes behind a signing secret: Standard Webhooks asks for 24 to 64. */
const SECRET_BYTES = 32;

const base64Of = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** A new signing secret as Standard Webhooks writes one: `whsec_` + base64 of random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${base64Of(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))}`;
}

/**
 * A new `webhook-id`: `msg_` + 22 random URL-safe characters (132 bits). It stays the same on
 * every attempt of one delivery, so a receiver can drop the repeats of one it already took.
 */
export function generateDeliveryId(): string {
  return `msg_${toBase64Url(crypto.getRandomValues(new Uint8Array(17))).slice(0, 22)}`;
}
