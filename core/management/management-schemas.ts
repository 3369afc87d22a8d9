import type { ApiCatalogOptions } from '../api-docs/api-operation.js';
import { answerOf, ISO_DATE, isoDate, ref, strictObject } from '../api-docs/schema-parts.js';
import { PASSWORD_PATCH_SCHEMA, PASSWORD_PROTECTED_SCHEMA } from '../passwords/password-schemas.js';
import { CLICK_DAYS_SHOWN } from '../rules/clicks.js';
import { EXPIRE_DURATIONS } from '../rules/expiry.js';
import { MAX_TAG_LENGTH, MAX_TAGS, MAX_TITLE_LENGTH } from './links/link-labels.js';
import { linkRuleRequests, linkRulesProperties } from './links/link-rules-schemas.js';
import { MAX_NAME_LENGTH } from './owners/owner-name.js';

/** A tag: 1–32 letters (Hangul among them), digits, `-` or `_`. */
const TAG_PATTERN = `^[\\p{L}\\p{Nd}_-]{1,${MAX_TAG_LENGTH}}$`;

const linkProperties = {
  code: { type: 'string', minLength: 1 },
  short_url: { type: 'string', pattern: '/$' },
  original_url: { type: 'string' },
  created_at: isoDate,
  expiration_date: isoDate,
  status: { enum: ['active', 'expired', 'disabled'] },
  clicks: { type: 'integer', minimum: 0 },
  updated_at: isoDate,
  password_protected: PASSWORD_PROTECTED_SCHEMA,
  title: { type: ['string', 'null'], maxLength: MAX_TITLE_LENGTH, description: 'Its title; null when none.' },
  tags: {
    type: 'array',
    maxItems: MAX_TAGS,
    description: 'Its tags, in lower case (tags compare case-insensitively).',
    items: { type: 'string', pattern: TAG_PATTERN },
  },
  ...linkRulesProperties,
};

/** The title and tags a v1 create and a PATCH take (`null` removes them in a PATCH). */
export const linkLabelRequests = {
  title: {
    type: ['string', 'null'],
    maxLength: MAX_TITLE_LENGTH,
    description: `A name for the link, at most ${MAX_TITLE_LENGTH} characters (trimmed); null or "" for none.`,
  },
  tags: {
    type: ['array', 'null'],
    maxItems: MAX_TAGS,
    description: `At most ${MAX_TAGS} tags, each 1–${MAX_TAG_LENGTH} letters, digits, - or _; compared and kept in lower case, duplicates once. A PATCH replaces the whole list ([] or null: none).`,
    items: { type: 'string', pattern: TAG_PATTERN },
  },
};

/** A stats list: biggest first, the top 10 then `other`. */
const namedCounts = (description: string) => ({
  type: 'array',
  maxItems: 11,
  description: `${description} Biggest first: the top 10, then the rest as \`other\`.`,
  items: strictObject({ name: { type: 'string' }, clicks: { type: 'integer', minimum: 0 } }),
});

/**
 * The bodies of the owners and links API (`/api/v1/keys`, `/api/v1/me`, `/api/v1/links…`), as
 * `core/management/owners/key-routes.ts` and `core/management/links/link-view.ts` write them. Requests ignore unknown
 * fields (as creates do); answers are strict.
 */
export function managementSchemas(options: ApiCatalogOptions) {
  return {
    Link: strictObject(linkProperties),
    LinkDetail: strictObject({
      ...linkProperties,
      clicks_by_day: {
        type: 'array',
        minItems: CLICK_DAYS_SHOWN,
        maxItems: CLICK_DAYS_SHOWN,
        description: 'Each of the last 30 UTC days up to today, oldest first; days without clicks as 0.',
        items: strictObject({
          day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          clicks: { type: 'integer', minimum: 0 },
        }),
      },
    }),
    DeletedLink: strictObject({
      code: { type: 'string', minLength: 1 },
      deleted: { const: true },
      updated_at: { ...isoDate, description: 'When the link was deleted.' },
    }),
    LinkList: answerOf(
      strictObject({
        links: {
          type: 'array',
          description: 'Links; with `changed_since`, deletions too.',
          items: { anyOf: [ref('Link'), ref('DeletedLink')] },
        },
        next_cursor: { type: ['string', 'null'], description: 'The `cursor` of the next page; null on the last.' },
      }),
    ),
    LinkAnswer: answerOf(ref('Link')),
    LinkDetailAnswer: answerOf(ref('LinkDetail')),
    LinkPatch: {
      type: 'object',
      minProperties: 1,
      anyOf: [
        { required: ['original_url'] },
        { required: ['disabled'] },
        { required: ['title'] },
        { required: ['tags'] },
        { required: ['expire_duration'] },
        { required: ['password'] },
        { required: ['redirect_rules'] },
        { required: ['max_visits'] },
        { required: ['valid_since'] },
        { required: ['forward_query'] },
      ],
      properties: {
        password: PASSWORD_PATCH_SCHEMA,
        original_url: { type: 'string', maxLength: options.maxUrlLength, format: 'uri' },
        disabled: { type: 'boolean', description: 'True: the link answers 410 until it is enabled again.' },
        ...linkLabelRequests,
        ...linkRuleRequests,
        expire_duration: {
          enum: [...EXPIRE_DURATIONS],
          description:
            'Renew: the link expires this long from now. An expired link whose code nobody has taken since is active again (a disabled one stays disabled).',
        },
      },
    },
    TagList: answerOf(
      strictObject({
        tags: {
          type: 'array',
          description: 'Every tag of your links (any status), in tag order.',
          items: strictObject({
            tag: { type: 'string', pattern: TAG_PATTERN },
            links: { type: 'integer', minimum: 1, description: 'Links that carry it.' },
            clicks: { type: 'integer', minimum: 0, description: 'Their clicks, added up.' },
          }),
        },
      }),
    ),
    TagRename: {
      type: 'object',
      required: ['name'],
      properties: {
        name: {
          type: 'string',
          pattern: TAG_PATTERN,
          description: 'The new name (compared case-insensitively); a link that has both keeps it once.',
        },
      },
    },
    TagEditAnswer: answerOf(
      strictObject({
        tag: { type: 'string', pattern: TAG_PATTERN, description: 'The tag renamed to, or the one removed.' },
        links: { type: 'integer', minimum: 1, description: 'The links it was renamed on or removed from.' },
      }),
    ),
    VisitsDeletedAnswer: answerOf(
      strictObject({
        deleted_visits: {
          type: 'integer',
          minimum: 0,
          description: 'The visits deleted: clicks and bot visits, as the link counted them.',
        },
      }),
    ),
    KeyRequest: {
      type: 'object',
      required: ['name'],
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_NAME_LENGTH,
          description:
            "The owner's name, trimmed and in Unicode NFC: a key for a name already taken goes to that owner.",
        },
      },
    },
    KeyCreated: answerOf(
      strictObject({
        id: { type: 'integer', minimum: 1 },
        name: { type: 'string', minLength: 1 },
        key: { type: 'string', minLength: 1, description: 'The key itself: shown only in this answer.' },
        created_at: isoDate,
      }),
    ),
    KeyList: answerOf(
      strictObject({
        keys: {
          type: 'array',
          items: strictObject({
            id: { type: 'integer', minimum: 1 },
            name: { type: 'string', minLength: 1 },
            created_at: isoDate,
            last_used_at: { type: ['string', 'null'], pattern: ISO_DATE, description: 'Within a minute; null: never.' },
            revoked: { type: 'boolean' },
          }),
        },
      }),
    ),
    LinkStatsAnswer: answerOf(
      strictObject({
        total: { type: 'integer', minimum: 0, description: 'Clicks on the days of the range (bots apart).' },
        bots: { type: 'integer', minimum: 0, description: 'Visits by bots in the range (not clicks).' },
        days: {
          type: 'array',
          description: 'Each UTC day of the range, oldest first; days without clicks as 0.',
          items: strictObject({
            day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
            clicks: { type: 'integer', minimum: 0 },
          }),
        },
        referrers: namedCounts('Referrer hosts; `direct` for none, `unknown` where withheld.'),
        countries: namedCounts('ISO 3166-1 alpha-2 codes; `unknown` where not known or withheld.'),
        browsers: namedCounts('Browser names; `unknown` where not known or withheld.'),
        os: namedCounts('Operating systems; `unknown` where not known or withheld.'),
        devices: namedCounts('Device types (desktop, mobile, tablet, tv); `unknown` where not known or withheld.'),
      }),
    ),
    VisitList: answerOf(
      strictObject({
        visits: {
          type: 'array',
          description: 'Newest first.',
          items: strictObject({
            at: isoDate,
            referrer: { type: ['string', 'null'], description: 'The host alone; `direct` for none; null: withheld.' },
            country: { type: ['string', 'null'], pattern: '^[A-Z]{2}$' },
            browser: { type: ['string', 'null'] },
            os: { type: ['string', 'null'] },
            device: { type: ['string', 'null'] },
            bot: { type: 'boolean' },
          }),
        },
        next_cursor: { type: ['string', 'null'], description: 'The `cursor` of the next page; null on the last.' },
      }),
    ),
    Me: answerOf(strictObject({ name: { type: 'string', minLength: 1 }, admin: { type: 'boolean' } })),
    Done: answerOf(),
  };
}
