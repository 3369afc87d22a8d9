import { scopeOf } from '../../management/owners/authenticate.js';
import { findShortUrl, PRIVATE, type ShlinkContext, type ShlinkHandler } from './shlink-context.js';
import { ShlinkProblemError, shortUrlNotFound } from './shlink-problem.js';
import { parseShlinkRedirectRules, toShlinkRedirectRules } from './shlink-redirect-rules.js';
import { bodyFields, parseShlinkBody } from './short-url-fields.js';

/** The body setting redirect rules takes, shown when a body is not JSON. */
const RULES_EXAMPLE = '{"redirectRules":[]}';

/**
 * Shlink's redirect rules of a short URL (by device, browser, language, query parameter,
 * country, date, IP address), which its web client reads and sets on the edit page. Setting (by
 * `POST` or `PATCH`, which Shlink 4.4 takes alike) replaces the whole list, in the order given:
 * the first rule whose conditions all hold sends the visitor to its long URL.
 */
export function redirectRuleHandlers(context: ShlinkContext): Record<string, ShlinkHandler> {
  const setRules: ShlinkHandler = async (c) => {
    const scope = scopeOf(await context.callerOf(c.req.raw));
    const link = await findShortUrl(context, c.req.raw, scope);
    const fields = bodyFields(parseShlinkBody(await c.req.raw.text(), RULES_EXAMPLE), RULES_EXAMPLE);
    const rules = parseShlinkRedirectRules(fields.redirectRules, context.settings.shorten.urlRules);
    const result = await context.store.updateLink(
      link.codeKey,
      scope,
      { redirectRules: rules },
      context.settings.now(),
    );
    if (!result.updated && result.reason === 'not_found') throw shortUrlNotFound(link.code);
    if (!result.updated) {
      throw new ShlinkProblemError(
        'gone',
        `The short URL "${link.code}" has expired and its rules can no longer be changed; renew it first with a validUntil at most 31 days away.`,
        { extras: { shortCode: link.code } },
      );
    }
    return c.json(toShlinkRedirectRules(result.link.originalUrl, result.link.redirectRules), 200, PRIVATE);
  };
  return {
    async getShortUrlRedirectRules(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const link = await findShortUrl(context, c.req.raw, scope);
      return c.json(toShlinkRedirectRules(link.originalUrl, link.redirectRules), 200, PRIVATE);
    },
    setShortUrlRedirectRules: setRules,
    patchShortUrlRedirectRules: setRules,
  };
}
