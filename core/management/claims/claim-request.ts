import { z } from 'zod/mini';
import { invalid } from '../../http/errors.js';

/** The most links one claim asks for: the web app keeps at most 100 made signed out. */
export const MAX_CLAIMS = 100;

/** One link asked for: its code as the short URL spells it, and the token its create answered. */
export interface ClaimItem {
  code: string;
  claimToken: string;
}

const SHAPE = `claims must be a list of 1 to ${MAX_CLAIMS} objects such as {"code":"abc1234","claim_token":"lc_…"}`;

const claimSchema = z.object({
  claims: z
    .array(
      z.object({
        code: z.string({ error: (issue) => `Each claim needs its code as a string${got(issue)}.` }),
        claim_token: z.string({
          error: (issue) => `Each claim needs the claim_token its create answered, as a string${got(issue)}.`,
        }),
      }),
      { error: `${SHAPE}.` },
    )
    .check(
      z.minLength(1, `${SHAPE}; it is empty.`),
      z.maxLength(MAX_CLAIMS, `${SHAPE}; send the rest in another request.`),
    ),
});

const got = (issue: { input?: unknown }) => (issue.input === undefined ? '' : ', not this');

/**
 * The body of `POST /api/v1/links/claim`: `{"claims":[{code, claim_token}, …]}`, at most
 * `MAX_CLAIMS` of them. A body of another shape is a 400 that says the shape; each item's code and
 * token are judged by the claim itself (an unknown code or a wrong token is that item's refusal).
 */
export function parseClaimBody(body: unknown): ClaimItem[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid(`The request body: ${SHAPE}.`);
  const result = claimSchema.safeParse(body);
  if (!result.success) throw invalid(result.error.issues[0]?.message ?? `${SHAPE}.`);
  return result.data.claims.map(({ code, claim_token }) => ({ code, claimToken: claim_token }));
}
