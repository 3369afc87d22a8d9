import { invalid } from '../http/errors.js';
import { isPrivateHost } from '../rules/private-address.js';

/** The longest endpoint URL taken. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Checks an endpoint's `url`: absolute, without credentials, HTTPS, or HTTP too when private
 * targets are allowed (a server on a private network, or a test); with `blockPrivateTargets`,
 * never a private, loopback or link-local host (the metadata service, the server itself). The
 * name is judged again, as resolved, at every delivery (`server/webhooks/post-delivery.ts`).
 */
export function parseWebhookUrl(raw: unknown, blockPrivateTargets: boolean): string {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw invalid('url is required: the HTTPS address your endpoint receives events at.');
  }
  const url = raw.trim();
  if (url.length > MAX_WEBHOOK_URL_LENGTH) {
    throw invalid(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long; it has ${url.length}.`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url must be an absolute URL, such as https://example.com/hooks/linklet.');
  }
  const allowed = blockPrivateTargets ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(parsed.protocol)) {
    throw invalid(
      blockPrivateTargets
        ? `url must use https (not ${parsed.protocol.slice(0, -1)}): events are sent only over HTTPS on this server.`
        : `url must use https or http, not ${parsed.protocol.slice(0, -1)}.`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw invalid('url must not contain user credentials (user@host); events are signed instead.');
  }
  if (blockPrivateTargets && isPrivateHost(parsed.hostname)) {
    throw invalid(
      `url must not point at a private, loopback or link-local address (${parsed.hostname}); this server sends events only to public hosts.`,
    );
  }
  return parsed.href;
}
