import { answerOf, ref, strictObject } from '../../api-docs/schema-parts.js';
import { MAX_CLAIMS } from './claim-request.js';

/** The claim token's shape, as a create without a key answers it and a claim takes it. */
export const CLAIM_TOKEN_SCHEMA = {
  type: 'string',
  pattern: '^lc_[A-Za-z0-9_-]{43}$',
  description:
    'Proof of creation: whoever holds it may make the link theirs once (`POST /api/v1/links/claim`). Given once, only to a create without a key; the server keeps only its hash.',
};

/** The bodies of `POST /api/v1/links/claim`. */
export const claimSchemas = {
  ClaimRequest: {
    type: 'object',
    required: ['claims'],
    properties: {
      claims: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_CLAIMS,
        items: {
          type: 'object',
          required: ['code', 'claim_token'],
          properties: {
            code: { type: 'string', minLength: 1, description: 'The code the create answered.' },
            claim_token: CLAIM_TOKEN_SCHEMA,
          },
        },
      },
    },
  },
  ClaimReport: answerOf(
    strictObject({
      claimed: {
        type: 'array',
        description: 'The links now yours (one already yours counts too: a retry says what the first try did).',
        items: ref('Link'),
      },
      refused: {
        type: 'array',
        description: 'The links not made yours, each with why.',
        items: strictObject({
          code: { type: 'string', description: 'The code as it was asked for.' },
          reason: {
            enum: ['unknown', 'owned', 'mismatch'],
            description:
              '`unknown`: no link holds the code (deleted, or expired and taken again); `owned`: it belongs to someone already; `mismatch`: the token is not this link’s.',
          },
          message: { type: 'string', minLength: 1 },
        }),
      },
    }),
  ),
};
