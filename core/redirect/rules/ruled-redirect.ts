import type { Answer } from '../../http/answer.js';
import { type ErrorAudience, errorAnswer } from '../../http/error-answer.js';
import { LinkletError } from '../../http/errors.js';
import { REDIRECT_SECURITY_HEADERS } from '../../http/security-headers.js';
import type { AgentClassifier } from '../../rules/agent-facts.js';
import type { RedirectRule } from '../../rules/redirect-rule.js';
import type { Link } from '../../store/link-store.js';
import { redirectCacheControl } from '../redirect-cache.js';
import { locationOf } from '../resolve.js';
import { chooseRule } from './choose-target.js';
import { withForwardedQuery } from './forward-query.js';
import { RuleVisitor, type VisitorRequest } from './rule-visitor.js';
import type { VisitLedger } from './visit-ledger.js';

/**
 * A link that carries its rules' `Location`s as well as its own (the server's cache keeps them
 * with the record), so a redirect chosen by a rule parses no URL.
 */
export interface RuleLocatedLink extends Link {
  readonly ruleLocations: readonly string[];
}

/** The `Location` of a link's rule `index`: its target's ASCII serialization. */
export function ruleLocationOf(link: Link | RuleLocatedLink, index: number): string {
  const known = (link as Partial<RuleLocatedLink>).ruleLocations?.[index];
  return known ?? new URL((link.redirectRules as RedirectRule[])[index]?.targetUrl as string).href;
}

/** What a redirect of a link with rules or limits needs besides the link and the request. */
export interface LinkRuleContext {
  agentOf: AgentClassifier;
  ledger: VisitLedger;
}

/**
 * A redirect chosen by a rule, counted against a limit or started at a date must not be kept by
 * the browser: the next visit may go elsewhere (another day, another network), or not at all (the
 * limit reached, the start moved), and every click must reach the server to be counted.
 */
export const RULED_CACHE_CONTROL = 'private, no-store';

/** Where an active link with rules or limits sends this visit, or why it sends it nowhere (410). */
export type RuledOutcome = { location: string; cacheControl: string } | { gone: LinkletError };

const notYetValid = (at: number) =>
  new LinkletError('gone', `This short link is not valid until ${new Date(at).toISOString()}.`, {
    gone: { reason: 'not_yet_valid', at },
  });
const usedUp = (link: Link) =>
  new LinkletError('gone', `This short link has used all its visits (${link.maxVisits}).`, {
    gone: { reason: 'used_up' },
  });

/**
 * The redirect of an active link that has rules, a limit, a start or query forwarding (see
 * `hasRedirectOptions`; a link without any takes the plain path, which this never slows). Before
 * its `validSince`, or with its `maxVisits` used, it answers 410; else the first rule whose
 * conditions hold gives the target (none: the link's own), with the visit's query added when it
 * forwards it. `click`: the visit is a click if it is let through (a GET, no prefetch); a bot's
 * is not counted. A promise only when the limit's count is read from the store.
 */
export function decideRuledRedirect(
  link: Link,
  request: VisitorRequest,
  now: number,
  click: boolean,
  context: LinkRuleContext,
  cacheSeconds: number,
): RuledOutcome | Promise<RuledOutcome> {
  if (link.validSince !== undefined && now < link.validSince) return { gone: notYetValid(link.validSince) };
  const visitor = new RuleVisitor(request, now, context.agentOf);
  const redirect = (): RuledOutcome => {
    const rules = link.redirectRules;
    const chosen = rules === undefined ? -1 : chooseRule(rules, visitor);
    let location = chosen === -1 ? locationOf(link) : ruleLocationOf(link, chosen);
    if (link.forwardQuery === true) location = withForwardedQuery(location, request.query);
    const keepable = link.redirectRules === undefined && link.maxVisits === undefined && link.validSince === undefined;
    const cacheControl = keepable ? redirectCacheControl(link.expiresAt, now, cacheSeconds) : RULED_CACHE_CONTROL;
    return { location, cacheControl };
  };
  if (link.maxVisits === undefined) return redirect();
  const admitted = context.ledger.admit(link, click && !visitor.agent.bot);
  const settle = (yes: boolean): RuledOutcome => (yes ? redirect() : { gone: usedUp(link) });
  return admitted instanceof Promise ? admitted.then(settle) : settle(admitted);
}

/** A ruled outcome as the handler's answer: the 302, or the 410 page or envelope in the visitor's language. */
export function ruledAnswer(outcome: RuledOutcome, audience: ErrorAudience): Answer {
  if ('gone' in outcome) return errorAnswer(outcome.gone, audience);
  return {
    status: 302,
    headers: { Location: outcome.location, 'Cache-Control': outcome.cacheControl, ...REDIRECT_SECURITY_HEADERS },
    body: null,
  };
}
