import { LinkletError } from '../../http/errors.js';
import { parseJsonText } from '../../http/parse-json-text.js';
import { parseTags, parseTitle } from '../../management/links/link-labels.js';
import { type OriginalUrlRules, parseOriginalUrl } from '../../rules/url.js';
import type { LinkPatch } from '../../store/link-management-store.js';
import { parseShlinkDate } from './shlink-dates.js';
import { invalidData } from './shlink-problem.js';

/** Linklet's v1 names in a rule's message, as Shlink's clients know the fields. */
const SHLINK_NAMES: Array<[RegExp, string]> = [
  [/\boriginal_url\b/g, 'longUrl'],
  [/\bcustom_code\b/g, 'customSlug'],
  [/\btag=/g, 'tags[]='],
];

/**
 * Runs a Linklet rule for a Shlink field: a refusal becomes Shlink's `invalid-data` naming
 * `field`, its message speaking Shlink's names (`longUrl`, not `original_url`).
 */
export function asShlinkField<T>(field: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof LinkletError) || error.kind !== 'invalid') throw error;
    const detail = SHLINK_NAMES.reduce((text, [name, shlinkName]) => text.replace(name, shlinkName), error.message);
    throw invalidData([field], detail);
  }
}

/** The longest `validUntil` Linklet honours: 31 days from now (its longest expiry is a month). */
export const MAX_VALID_UNTIL_MS = 31 * 86_400_000;

/**
 * `validUntil` as the link's exact expiry: in the future and at most 31 days away, else a 400
 * that says which; Linklet has no link without an expiry.
 */
export function parseValidUntil(value: unknown, now: number): number {
  const at = parseShlinkDate(value, 'validUntil');
  if (at <= now) throw invalidData(['validUntil'], 'validUntil must be in the future.');
  if (at > now + MAX_VALID_UNTIL_MS) {
    throw invalidData(['validUntil'], 'validUntil must be at most 31 days away: Linklet links live a month at most.');
  }
  return at;
}

/** A body of Shlink's short URL endpoints, shown in the refusal of one that is not a JSON object. */
export const SHLINK_BODY_EXAMPLE = '{"longUrl":"https://example.com"}';

/**
 * A Shlink request body's text as JSON; text that is not JSON is refused in Shlink's field names
 * (`example`), not Linklet's, as a Shlink client's user knows them.
 */
export function parseShlinkBody(text: string, example = SHLINK_BODY_EXAMPLE): unknown {
  return parseJsonText(text, example);
}

/** A body's fields as Shlink clients send them: a JSON object. */
export function bodyFields(body: unknown, example = SHLINK_BODY_EXAMPLE): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidData([], `The request body must be a JSON object, such as ${example}.`);
  }
  return body as Record<string, unknown>;
}

/** A required or optional string field (`null` is absent). */
export function stringField(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidData([name], `${name} must be a string.`);
  return value;
}

/** A boolean field (`null` is absent). */
export function booleanField(fields: Record<string, unknown>, name: string): boolean | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidData([name], `${name} must be true or false.`);
  return value;
}

/** The limits and forwarding of a short URL, as a store patch takes them (`null`: removed). */
export type ShlinkLinkLimits = Pick<LinkPatch, 'maxVisits' | 'validSince' | 'forwardQuery'>;

/**
 * Shlink's `maxVisits` (a whole number, 1 or more), `validSince` (an ISO 8601 date) and
 * `forwardQuery` (true or false) from a create's or edit's body; `null` removes a limit (an edit)
 * or is no limit (a create); absent leaves it as it is.
 */
export function parseShlinkLimits(fields: Record<string, unknown>): ShlinkLinkLimits {
  const limits: ShlinkLinkLimits = {};
  const maxVisits = fields.maxVisits;
  if (maxVisits === null) limits.maxVisits = null;
  else if (maxVisits !== undefined) {
    if (typeof maxVisits !== 'number' || !Number.isSafeInteger(maxVisits) || maxVisits < 1) {
      throw invalidData(['maxVisits'], 'maxVisits must be a whole number of visits, 1 or more (or null for no limit).');
    }
    limits.maxVisits = maxVisits;
  }
  if (fields.validSince === null) limits.validSince = null;
  else if (fields.validSince !== undefined) limits.validSince = parseShlinkDate(fields.validSince, 'validSince');
  const forwardQuery = booleanField(fields, 'forwardQuery');
  if (forwardQuery !== undefined) limits.forwardQuery = forwardQuery;
  return limits;
}

export const parseLongUrl = (value: string, rules: OriginalUrlRules) =>
  asShlinkField('longUrl', () => parseOriginalUrl(value, rules));
export const parseShlinkTags = (value: unknown) => asShlinkField('tags', () => parseTags(value));
export const parseShlinkTitle = (value: unknown) => asShlinkField('title', () => parseTitle(value));

/**
 * Shlink's options Linklet does not have, taken at the value that means "none" (`null`, `false`,
 * no device URLs) and refused otherwise, with a detail that says why: a link is never offered to
 * crawlers, and its devices are sent on by redirect rules instead (`/redirect-rules`).
 */
export function refuseUnsupportedOptions(fields: Record<string, unknown>, host: string): void {
  const given = (name: string) => fields[name] !== undefined && fields[name] !== null;
  if (booleanField(fields, 'crawlable') === true) {
    throw invalidData(['crawlable'], 'Linklet does not offer short URLs to crawlers; send crawlable false.');
  }
  const devices = fields.deviceLongUrls;
  if (devices !== undefined && devices !== null) {
    const none =
      typeof devices === 'object' && !Array.isArray(devices) && Object.values(devices).every((url) => url === null);
    if (!none)
      throw invalidData(['deviceLongUrls'], 'Linklet sends every device to the one longUrl; leave deviceLongUrls out.');
  }
  const domain = stringField(fields, 'domain');
  if (domain !== undefined && domain !== '' && domain.toLowerCase() !== host) {
    throw invalidData(['domain'], `This server has one domain, ${host}; leave domain out.`);
  }
  if (given('shortCodeLength')) {
    throw invalidData(
      ['shortCodeLength'],
      'Linklet chooses the length of generated codes; leave shortCodeLength out, or send a customSlug.',
    );
  }
  if (given('pathPrefix')) throw invalidData(['pathPrefix'], 'Linklet codes have no prefix; put it into a customSlug.');
}
