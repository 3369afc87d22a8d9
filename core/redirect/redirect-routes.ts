import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import type { Answer } from '../http/answer.js';
import { notAllowed } from '../http/not-allowed.js';
import { codeSegmentOf } from '../http/paths.js';
import { audienceOf, sendAnswer } from '../http/send-answer.js';
import { asksNotToBeTracked } from '../management/visits/visits.js';
import type { PasswordTries } from '../passwords/password-tries.js';
import { isPasswordProtected } from '../passwords/protected-link.js';
import { createProtectedLinkAnswerer } from '../passwords/protected-link-routes.js';
import { type ClickRecorder, isClick } from '../rules/clicks.js';
import type { LinkletSettings } from '../settings.js';
import { hasRedirectOptions } from '../store/link-rule-fields.js';
import type { Link } from '../store/link-store.js';
import { answerShortUrl, notFoundError, resolveCode } from './resolve.js';
import { type LinkRules, visitorCountry } from './rules/link-rule-options.js';
import type { VisitorRequest } from './rules/rule-visitor.js';
import { decideRuledRedirect, ruledAnswer } from './rules/ruled-redirect.js';

export interface RedirectRoutesOptions {
  settings: LinkletSettings;
  limitBody: MiddlewareHandler;
  /** Told of every click (see `isClick`), to count it; must not throw or wait. */
  onClick: ClickRecorder | undefined;
  /** When given, each click hands `onClick` the raw strings of its visit too (parsed later, off the redirect). */
  visits: { countryHeader?: string | undefined } | undefined;
  /** Where password tries are counted (`HandlerOptions.passwordTries`); this process's memory when absent. */
  passwordTries?: PasswordTries | undefined;
  /** What redirect rules and limits read (`linkRulesOf`), shared with the server's fast path. */
  linkRules: LinkRules;
}

const READ_ALLOW = ['GET', 'HEAD'];

/** The code segment as sent: Hono's `c.req.path` is percent-decoded, and a code is decoded once, by `resolveCode`. */
const segmentOf = (c: Context) => codeSegmentOf(new URL(c.req.url).pathname);

/**
 * The short URLs, `/{code}` and `/{code}/`: registered last, as they take every path the other
 * features left. A protected link answers its password page (GET) and form (POST).
 */
export function registerRedirectRoutes(app: Hono<AppEnv>, options: RedirectRoutesOptions): void {
  const { settings, limitBody, onClick, visits, linkRules } = options;
  const { store, timeZone } = settings;
  const answerProtected = createProtectedLinkAnswerer(settings, onClick, options.passwordTries);
  const visitOf = (c: Context<AppEnv>) =>
    visits && {
      referer: c.req.header('referer'),
      userAgent: c.req.header('user-agent'),
      country: visits.countryHeader === undefined ? undefined : c.req.header(visits.countryHeader),
      private: asksNotToBeTracked(c.req.header('dnt'), c.req.header('sec-gpc')),
    };
  const protectedRequest = (c: Context<AppEnv>, body?: string) => ({
    request: c.req.raw,
    client: c.env?.client,
    audience: audienceOf(c, timeZone),
    body,
    visit: visitOf(c),
  });

  /** The visitor as rules read it: raw headers, each fact worked out only if a condition asks. */
  const visitorOf = (c: Context<AppEnv>): VisitorRequest => {
    const url = c.req.url;
    const mark = url.indexOf('?');
    return {
      userAgent: c.req.header('user-agent'),
      acceptLanguage: c.req.header('accept-language'),
      query: mark === -1 ? '' : url.slice(mark + 1).replace(/#.*$/, ''),
      country: () =>
        visitorCountry(
          linkRules,
          linkRules.countryHeader === undefined ? undefined : c.req.header(linkRules.countryHeader),
          c.env?.address,
        ),
      address: () => c.env?.address,
    };
  };

  /**
   * A protected link's answer (its page, tries, the 302 once the password is right), with its
   * rules and limits when it has any: not yet valid or used up, it is a 410 before any password is
   * asked for; opened, the 302 goes where its rules say (still never kept by the browser).
   */
  const answerProtectedLink = async (c: Context<AppEnv>, link: Link, at: number, body?: string): Promise<Answer> => {
    if (!hasRedirectOptions(link)) return answerProtected(link, at, protectedRequest(c, body));
    const cacheSeconds = settings.redirectCacheSeconds;
    const before = await decideRuledRedirect(link, visitorOf(c), at, false, linkRules, cacheSeconds);
    if ('gone' in before) return ruledAnswer(before, audienceOf(c, timeZone));
    const answer = await answerProtected(link, at, protectedRequest(c, body));
    if (answer.status !== 302) return answer;
    const method = c.req.method;
    const click = method === 'POST' || isClick(method, 302, c.req.header('sec-purpose'), c.req.header('purpose'));
    const outcome = await decideRuledRedirect(link, visitorOf(c), at, click, linkRules, cacheSeconds);
    if ('gone' in outcome) return ruledAnswer(outcome, audienceOf(c, timeZone));
    return { ...answer, headers: { ...answer.headers, Location: outcome.location } };
  };

  app.post('*', async (c, next) => {
    const segment = segmentOf(c);
    const at = settings.now();
    const resolution = segment === undefined ? undefined : await resolveCode(segment, store, at);
    if (resolution?.state !== 'active' || !isPasswordProtected(resolution.link)) return next();
    let answer: Answer | undefined;
    await limitBody(c, async () => {
      answer = await answerProtectedLink(c, resolution.link, at, await c.req.text());
    });
    return sendAnswer(c, answer as Answer);
  });

  app.get('*', async (c) => {
    const segment = segmentOf(c);
    if (segment === undefined) throw notFoundError();
    const at = settings.now();
    const resolution = await resolveCode(segment, store, at);
    if (resolution.state === 'active' && isPasswordProtected(resolution.link)) {
      return sendAnswer(c, await answerProtectedLink(c, resolution.link, at));
    }
    let answer: Answer;
    if (resolution.state === 'active' && hasRedirectOptions(resolution.link)) {
      // Rules, limits, a start or forwarding: decided apart, so a plain link's path stays as it was.
      const click = isClick(c.req.method, 302, c.req.header('sec-purpose'), c.req.header('purpose'));
      const cacheSeconds = settings.redirectCacheSeconds;
      const outcome = await decideRuledRedirect(resolution.link, visitorOf(c), at, click, linkRules, cacheSeconds);
      answer = ruledAnswer(outcome, audienceOf(c, timeZone));
    } else answer = answerShortUrl(resolution, at, audienceOf(c, timeZone), settings.redirectCacheSeconds);
    if (onClick && resolution.state === 'active') {
      if (isClick(c.req.method, answer.status, c.req.header('sec-purpose'), c.req.header('purpose'))) {
        onClick(resolution.link.codeKey, at, visitOf(c), resolution.link.ownerId);
      }
    }
    return sendAnswer(c, answer);
  });
  app.all('*', (c) => {
    if (segmentOf(c) === undefined) throw notFoundError();
    return notAllowed(READ_ALLOW)(c);
  });
}
