import type { ApiCatalogOptions } from '../api-docs/api-operation.js';
import { ISO_DATE } from '../api-docs/schema-parts.js';
import { CLAIM_TOKEN_SCHEMA } from '../management/claims/claim-schemas.js';
import { linkRuleRequests, linkRulesProperties } from '../management/links/link-rules-schemas.js';
import { linkLabelRequests } from '../management/management-schemas.js';
import { PASSWORD_CREATE_SCHEMA } from '../passwords/password-schemas.js';
import { MAX_CODE_LENGTH } from '../rules/code.js';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS } from '../rules/expiry.js';

const LEGACY_DATE = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';

/** A success envelope whose `data` is the link record of one dialect (v1: with the title and tags given). */
const successOf = (dateSchema: object, shortUrlPattern: string, labels: object = {}) => ({
  type: 'object',
  additionalProperties: false,
  required: ['status', 'message', 'data'],
  properties: {
    status: { const: 'success' },
    message: { type: 'string' },
    data: {
      type: 'object',
      additionalProperties: false,
      required: ['short_url', 'original_url', 'code', 'expiration_date'],
      properties: {
        short_url: { type: 'string', pattern: shortUrlPattern },
        original_url: { type: 'string' },
        code: { type: 'string', minLength: 1 },
        expiration_date: dateSchema,
        ...labels,
      },
    },
  },
});

/** The bodies of the create endpoints: what they take, and the success of each dialect. */
export function shortenSchemas(options: ApiCatalogOptions) {
  const shortenRequest = {
    type: 'object',
    required: ['original_url'],
    properties: {
      original_url: { type: 'string', maxLength: options.maxUrlLength, format: 'uri' },
      custom_code: {
        type: ['string', 'null'],
        // No maxLength: the limit counts code points after NFC, and NFD input is longer.
        description: `1 to ${MAX_CODE_LENGTH} code points after Unicode NFC: Hangul, ASCII letters, digits, _ and -; case-insensitive for ASCII.`,
      },
      expire_duration: { enum: [...EXPIRE_DURATIONS, null, ''], default: DEFAULT_EXPIRE_DURATION },
    },
  };
  return {
    ShortenRequest: shortenRequest,
    // v1 only: the legacy dialect takes exactly the fields the interface document lists.
    V1ShortenRequest: {
      ...shortenRequest,
      properties: {
        ...shortenRequest.properties,
        password: PASSWORD_CREATE_SCHEMA,
        ...linkLabelRequests,
        // A create reads "" as no tags, as it reads every optional field (a PATCH refuses it).
        tags: { ...linkLabelRequests.tags, type: ['array', 'null', 'string'], maxLength: 0 },
        ...linkRuleRequests,
      },
    },
    LegacySuccess: successOf({ type: 'string', pattern: LEGACY_DATE }, '[^/]$'),
    V1Success: successOf({ type: 'string', pattern: ISO_DATE }, '/$', {
      title: { type: 'string', description: 'The title given (only when one was).' },
      tags: {
        type: 'array',
        items: { type: 'string' },
        description: 'The tags given, lower case (only when some were).',
      },
      redirect_rules: { ...linkRulesProperties.redirect_rules, description: 'The rules given (only when some were).' },
      max_visits: { type: 'integer', minimum: 1, description: 'The visit limit given (only when one was).' },
      valid_since: {
        ...linkRulesProperties.valid_since,
        type: 'string',
        description: 'The start given (only when one was).',
      },
      forward_query: { const: true, description: 'Present (true) only when query forwarding was turned on.' },
      claim_token: {
        ...CLAIM_TOKEN_SCHEMA,
        description: `${CLAIM_TOKEN_SCHEMA.description} Present only when the create carried no key (on a server that keeps owners).`,
      },
    }),
  };
}
