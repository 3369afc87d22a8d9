import { createHmac } from 'node:crypto';

/**
 * The `webhook-signature` of Standard Webhooks: `v1,` + base64 HMAC-SHA256 of
 * `id.timestamp.body`, keyed with the bytes the secret's base64 (after `whsec_`) encodes.
 */
export function signDelivery(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
