import type { Env, Hono } from 'hono';
import { LinkletError } from '../../http/errors.js';
import { notAllowed } from '../../http/not-allowed.js';
import { parseJsonText } from '../../http/parse-json-text.js';
import { toLinkView } from '../links/link-view.js';
import { type ManagementContext, PRIVATE, success } from '../management-context.js';
import { type Caller, requireCaller } from '../owners/authenticate.js';
import { claimLinks, REFUSAL_MESSAGES } from './claim-links.js';
import { parseClaimBody } from './claim-request.js';

export const CLAIM_PATH = '/api/v1/links/claim';

/** The owner a claim gives links to: an owner's key; the administrator's sees every link already. */
function requireOwner(caller: Caller | undefined): Extract<Caller, { admin: false }> {
  const known = requireCaller(caller);
  if (!known.admin) return known;
  throw new LinkletError(
    'forbidden',
    "The administrator's key sees every link already and owns none; claim links with an owner's key.",
  );
}

/** What the envelope's message says of a claim. */
function claimSummary(claimed: number, refused: number): string {
  const made = claimed === 1 ? '1 link is yours now' : `${claimed} links are yours now`;
  return refused === 0 ? `${made}.` : `${made}; ${refused} could not be claimed (see refused).`;
}

/**
 * `POST /api/v1/links/claim`: an owner makes links made without a key theirs, each on the claim
 * token its create answered (see `claimLinks`). The key is checked before the body is read.
 * Answers 200 with the links now the caller's and, for each one refused, a reason and a message.
 */
export function registerClaimRoutes<E extends Env>(app: Hono<E>, context: ManagementContext): void {
  const { store, baseUrl, now } = context;
  app.post(CLAIM_PATH, async (c, next) => {
    requireOwner(await context.callerOf(c.req.raw));
    return context.limitBody(c, next);
  });
  app.post(CLAIM_PATH, async (c) => {
    const owner = requireOwner(await context.callerOf(c.req.raw));
    const items = parseClaimBody(
      parseJsonText(await c.req.raw.text(), '{"claims":[{"code":"abc1234","claim_token":"lc_…"}]}'),
    );
    const at = now();
    const outcomes = await claimLinks(store, items, owner.ownerId, at);
    const claimed = new Map<string, ReturnType<typeof toLinkView>>();
    const refused: Array<{ code: string; reason: string; message: string }> = [];
    for (const outcome of outcomes) {
      if (outcome.claimed) claimed.set(outcome.link.codeKey, toLinkView(outcome.link, baseUrl, at));
      else refused.push({ code: outcome.code, reason: outcome.reason, message: REFUSAL_MESSAGES[outcome.reason] });
    }
    const data = { claimed: [...claimed.values()], refused };
    return c.json(success(claimSummary(data.claimed.length, refused.length), data), 200, PRIVATE);
  });
  app.all(CLAIM_PATH, notAllowed(['POST', 'OPTIONS']));
}
