import type { Creator } from '../env.js';
import { type Answer, jsonAnswer } from '../http/answer.js';
import { invalid, LinkletError } from '../http/errors.js';
import { parseJsonText } from '../http/parse-json-text.js';
import { generateClaimToken, hashClaimToken } from '../management/claims/claim-token.js';
import { parseCreateLabels, withLabels } from '../management/links/link-options-request.js';
import { parseCreateRuleFields } from '../management/links/link-rules-request.js';
import { withRuleFields } from '../management/links/link-rules-view.js';
import { parseCreatePassword } from '../passwords/password-hasher.js';
import { formatLegacyDate } from '../rules/dates.js';
import type { LinkletSettings } from '../settings.js';
import { isManagedLinkStore } from '../store/link-management-store.js';
import { codeTakenMessage, toLegacyEnvelope, toV1Envelope } from './envelopes.js';
import { shorten } from './shorten.js';
import { parseShortenBody } from './shorten-request.js';

/** The two API dialects: `/api.php` (legacy) and `/api/v1/…` (v1). */
export type Dialect = 'legacy' | 'v1';

/**
 * Turns a shorten request's body bytes into its answer; a refusal is thrown as a `LinkletError`.
 * Bytes, not text: a body that is not UTF-8 is refused rather than silently repaired. `creator`:
 * who the request's key names (`{}`, the administrator's, when not given).
 */
export type ShortenAnswerer = (dialect: Dialect, body: Uint8Array, creator?: Creator) => Promise<Answer>;

// `fatal`: invalid UTF-8 throws instead of turning into U+FFFD, which would store a URL nobody sent.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A request body's bytes as text; bytes that are not UTF-8 are a 400 saying so. */
export function decodeUtf8Body(body: Uint8Array): string {
  try {
    return utf8.decode(body);
  } catch {
    throw invalid('The request body is not valid UTF-8; send JSON text encoded as UTF-8.');
  }
}

/**
 * The shorten use case of both API dialects, from body bytes to answer: the legacy dialect
 * answers 200 and names the moment a taken code frees up in its 409; v1 answers 201 with a
 * `Location`, and a v1 create without a key also answers a claim token (see `claim-token.ts`).
 */
export function createShortenAnswerer(settings: LinkletSettings): ShortenAnswerer {
  const { baseUrl, timeZone } = settings;
  // Only a store that keeps owners can give a link to one: the extension's (IndexedDB, one
  // person's browser, no owners) answers no token, which would promise what it cannot do.
  const claimable = isManagedLinkStore(settings.store);
  return async (dialect, body, creator = {}) => {
    const json = parseJsonText(decodeUtf8Body(body));
    const request = parseShortenBody(json);
    // The legacy dialect stays as the interface document has it: it never reads a password.
    const password = dialect === 'v1' ? parseCreatePassword(json) : undefined;
    if (password) request.password = password;
    // Titles and tags are v1 only: the legacy dialect stays exactly as the interface says.
    if (dialect === 'v1')
      Object.assign(request, parseCreateLabels(json), parseCreateRuleFields(json, settings.shorten.urlRules));
    // The legacy dialect answers exactly the interface document's fields: no token there.
    const claimToken = dialect === 'v1' && creator.keyless && claimable ? generateClaimToken() : undefined;
    if (claimToken !== undefined) request.claimTokenHash = await hashClaimToken(claimToken);
    const result = await shorten(request, settings.shorten, creator.ownerId);
    if (!result.created) {
      const availableAt = dialect === 'legacy' ? formatLegacyDate(result.availableAt, timeZone) : undefined;
      throw new LinkletError('conflict', codeTakenMessage(result.code, availableAt));
    }
    if (dialect === 'legacy') return jsonAnswer(200, toLegacyEnvelope(result.link, baseUrl, timeZone));
    const envelope = withRuleFields(withLabels(toV1Envelope(result.link, baseUrl), result.link), result.link);
    if (claimToken !== undefined) envelope.data.claim_token = claimToken;
    return jsonAnswer(201, envelope, { Location: new URL(envelope.data.short_url).href });
  };
}
