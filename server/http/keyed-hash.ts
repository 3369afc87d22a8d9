import { createHmac } from 'node:crypto';

/**
 * HMAC-SHA256 of a text under a key derived from the server's secret and `purpose`, as base64url:
 * what a Redis key holds in place of a client's address, so no address is stored there, and the
 * same client maps to the same key on every instance sharing the secret (the store's). Without
 * the secret the digest cannot be reversed by hashing every IPv4 address.
 */
export function createKeyedHash(secret: string, purpose: string): (text: string) => string {
  const key = createHmac('sha256', secret).update(purpose).digest();
  return (text) => createHmac('sha256', key).update(text).digest('base64url');
}
