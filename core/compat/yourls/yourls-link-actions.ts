import { type Caller, scopeOf } from '../../management/owners/authenticate.js';
import { dayOf } from '../../rules/clicks.js';
import { shortUrlFor } from '../../shorten/envelopes.js';
import { inScope } from '../../store/link-management-store.js';
import type { Link } from '../../store/link-store.js';
import { pleaseLogIn } from './yourls-auth.js';
import { NEED_XML_OR_JSON, type YourlsAction, type YourlsContext } from './yourls-context.js';
import { codeKeyOfShortUrl, statsLinkOf, titleOf } from './yourls-link.js';

/**
 * The caller's link a `shorturl` field names: another owner's link is not found, exactly as a
 * link that does not exist, so a key learns nothing of links that are not its own.
 */
export async function callersLink(
  shorturl: string,
  caller: Caller | undefined,
  { store, settings }: YourlsContext,
): Promise<Link | undefined> {
  if (caller === undefined) throw pleaseLogIn();
  const key = codeKeyOfShortUrl(shorturl, settings.baseUrl);
  if (key === undefined) return undefined;
  const link = await store.findByCodeKey(key);
  return link !== undefined && inScope(link, scopeOf(caller)) ? link : undefined;
}

/** The keyword YOURLS echoes back: what the client sent, its host and path taken off. */
const keywordOf = (shorturl: string) => shorturl.replace(/^https?:\/\/[^/]*\//i, '').replace(/\/$/, '');

/** `action=expand`: the long URL of one of the caller's links, as `yourls_api_expand` answers. */
export const expandAction: YourlsAction = async (params, caller, context) => {
  const shorturl = params.get('shorturl') ?? '';
  const link = await callersLink(shorturl, caller, context);
  if (link === undefined) {
    return {
      status: 404,
      body: { keyword: keywordOf(shorturl), message: 'Error: short URL not found', errorCode: '404' },
      simple: 'not found',
    };
  }
  return {
    status: 200,
    body: {
      keyword: link.code,
      shorturl: shortUrlFor(context.settings.baseUrl, link.code),
      longurl: link.originalUrl,
      title: titleOf(link),
      message: 'success',
      statusCode: '200',
    },
    simple: link.originalUrl,
  };
};

/** `action=url-stats`: one of the caller's links with its clicks, as `yourls_get_keyword_stats` answers. */
export const urlStatsAction: YourlsAction = async (params, caller, context) => {
  const link = await callersLink(params.get('shorturl') ?? '', caller, context);
  if (link === undefined) {
    return {
      status: 404,
      body: { statusCode: '404', message: 'Error: short URL not found' },
      simple: NEED_XML_OR_JSON,
    };
  }
  const { baseUrl, timeZone, now } = context.settings;
  // Read fresh from the store: a link read may come from a cache that does not track clicks.
  const { total } = await context.store.clicksOf(link.codeKey, link.createdAt, dayOf(now()));
  return {
    status: 200,
    body: { statusCode: '200', message: 'success', link: statsLinkOf({ ...link, clicks: total }, baseUrl, timeZone) },
    simple: NEED_XML_OR_JSON,
  };
};
