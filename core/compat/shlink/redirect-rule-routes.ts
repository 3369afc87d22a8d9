import { scopeOf } from '../../management/owners/authenticate.js';
import { findShortUrl, PRIVATE, type ShlinkContext, type ShlinkHandler } from './shlink-context.js';
import { invalidData } from './shlink-problem.js';
import { bodyFields, parseShlinkBody } from './short-url-fields.js';

/** The one body setting redirect rules takes, shown when a body is not JSON. */
const RULES_EXAMPLE = '{"redirectRules":[]}';

/**
 * Shlink's redirect rules of a short URL (by device, language, query…), which its web client
 * reads on the edit page. Linklet has none: reading answers the empty list, and setting (by
 * `POST` or `PATCH`, which Shlink 4.4 takes alike) takes the empty list alone, so a client that
 * shows or clears rules works and none is dropped silently.
 */
export function redirectRuleHandlers(context: ShlinkContext): Record<string, ShlinkHandler> {
  const setRules: ShlinkHandler = async (c) => {
    const scope = scopeOf(await context.callerOf(c.req.raw));
    const link = await findShortUrl(context, c.req.raw, scope);
    const rules = bodyFields(parseShlinkBody(await c.req.raw.text(), RULES_EXAMPLE), RULES_EXAMPLE).redirectRules;
    if (!(Array.isArray(rules) && rules.length === 0)) {
      throw invalidData(
        ['redirectRules'],
        'Linklet sends every visit to the long URL and has no redirect rules; send an empty redirectRules list.',
      );
    }
    return c.json({ defaultLongUrl: link.originalUrl, redirectRules: [] }, 200, PRIVATE);
  };
  return {
    async getShortUrlRedirectRules(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const link = await findShortUrl(context, c.req.raw, scope);
      return c.json({ defaultLongUrl: link.originalUrl, redirectRules: [] }, 200, PRIVATE);
    },
    setShortUrlRedirectRules: setRules,
    patchShortUrlRedirectRules: setRules,
  };
}
