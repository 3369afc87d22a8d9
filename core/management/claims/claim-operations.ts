import type { ApiCatalogOptions, ApiOperationSpec } from '../../api-docs/api-operation.js';
import { error, withMeaning } from '../../api-docs/operation-parts.js';
import { keyRequired, storeDown, tooLarge } from '../management-answers.js';
import { MAX_CLAIMS } from './claim-request.js';

/** `POST /api/v1/links/claim`: served where the store keeps owners' links. */
export function claimOperations(options: ApiCatalogOptions): ApiOperationSpec[] {
  return [
    {
      method: 'POST',
      path: '/api/v1/links/claim',
      operationId: 'claimLinks',
      tag: 'links',
      summary: 'Make links you made without a key yours',
      description: `A create without a key answers a \`claim_token\` with the short URL: proof that whoever holds it made the link. With an owner's key, send up to ${MAX_CLAIMS} codes and their tokens: each link that still has no owner and whose token matches becomes yours (a token is good once), and the rest are refused one by one with a reason. Tokens are compared by their SHA-256 in constant time; the server never keeps a token itself.`,
      auth: 'required',
      requestBody: { schema: 'ClaimRequest', description: 'The links to claim: their codes and claim tokens.' },
      responses: {
        200: { description: 'Each link was claimed or refused; see `claimed` and `refused`.', schema: 'ClaimReport' },
        400: withMeaning(
          400,
          ` Here: \`claims\` is not a list of 1 to ${MAX_CLAIMS} objects with a string \`code\` and \`claim_token\`.`,
        ),
        401: keyRequired,
        403: error("The administrator's key: it sees every link already and owns none; claim with an owner's key."),
        413: tooLarge(options),
        503: storeDown,
      },
    },
  ];
}
