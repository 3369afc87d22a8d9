import { normalizeCustomCode } from '../../rules/code.js';
import type { OriginalUrlRules } from '../../rules/url.js';
import type { ShortenRequest } from '../../shorten/shorten-request.js';
import type { LinkPatch } from '../../store/link-management-store.js';
import type { Link } from '../../store/link-store.js';
import { parseShlinkDate } from './shlink-dates.js';
import { invalidData } from './shlink-problem.js';
import {
  asShlinkField,
  bodyFields,
  booleanField,
  parseLongUrl,
  parseShlinkLimits,
  parseShlinkTags,
  parseShlinkTitle,
  parseValidUntil,
  refuseUnsupportedOptions,
  stringField,
} from './short-url-fields.js';

/** A create's fields, checked: what `shorten` takes, and whether an existing link will do. */
export interface ShlinkCreate {
  request: ShortenRequest;
  findIfExists: boolean;
}

/** Where a create's or edit's rules come from. */
export interface WriteRules {
  urlRules: OriginalUrlRules;
  host: string;
  now: number;
}

/**
 * The body of Shlink's `POST /short-urls`. Without `validUntil` the link lives the server's
 * `COMPAT_EXPIRE_DURATION` (`request.expireDuration`); with it, exactly until then (see
 * `parseValidUntil`). Every field is checked here, with Shlink's names in the details, before
 * `shorten` checks them again for its own rules.
 */
export function parseShlinkCreate(
  body: unknown,
  rules: WriteRules,
  expireDuration: ShortenRequest['expireDuration'],
): ShlinkCreate {
  const fields = bodyFields(body);
  const longUrl = stringField(fields, 'longUrl');
  if (longUrl === undefined) throw invalidData(['longUrl'], 'longUrl is required: the URL to shorten.');
  refuseUnsupportedOptions(fields, rules.host);
  const originalUrl = parseLongUrl(longUrl, rules.urlRules);
  const slug = stringField(fields, 'customSlug');
  const customCode =
    slug === undefined || slug === '' ? undefined : asShlinkField('customSlug', () => normalizeCustomCode(slug));
  const request: ShortenRequest = { originalUrl, customCode, expireDuration };
  if (fields.validUntil !== undefined && fields.validUntil !== null) {
    request.expiresAt = parseValidUntil(fields.validUntil, rules.now);
  }
  const title = fields.title === undefined ? null : parseShlinkTitle(fields.title);
  if (title !== null) request.title = title;
  if (fields.tags !== undefined) request.tags = parseShlinkTags(fields.tags);
  // `null` and `false` are the defaults: `shorten` leaves them off the link.
  Object.assign(request, parseShlinkLimits(fields));
  return { request, findIfExists: booleanField(fields, 'findIfExists') ?? false };
}

/**
 * The body of Shlink's `PATCH /short-urls/{shortCode}` as a store patch. `validUntil` renews
 * the link; `null`, or the expiry it already has (what an edit form sends back unchanged),
 * leaves it as it is, since a Linklet link cannot live without an expiry.
 */
export function parseShlinkEdit(body: unknown, link: Link, rules: WriteRules): LinkPatch {
  const fields = bodyFields(body);
  refuseUnsupportedOptions(fields, rules.host);
  const patch: LinkPatch = {};
  const longUrl = stringField(fields, 'longUrl');
  if (longUrl !== undefined) patch.originalUrl = parseLongUrl(longUrl, rules.urlRules);
  if (fields.title !== undefined) patch.title = parseShlinkTitle(fields.title);
  if (fields.tags !== undefined) patch.tags = parseShlinkTags(fields.tags);
  Object.assign(patch, parseShlinkLimits(fields));
  if (fields.validUntil !== undefined && fields.validUntil !== null) {
    const at = parseShlinkDate(fields.validUntil, 'validUntil');
    if (Math.floor(at / 1000) !== Math.floor(link.expiresAt / 1000)) {
      patch.expiresAt = parseValidUntil(fields.validUntil, rules.now);
    }
  }
  return patch;
}
