import { LinkletError } from '../../http/errors.js';
import { parseTitle } from '../../management/links/link-labels.js';
import { normalizeCustomCode } from '../../rules/code.js';
import { type OriginalUrlRules, parseOriginalUrl, serviceHostOf } from '../../rules/url.js';
import { shortUrlFor } from '../../shorten/envelopes.js';
import { shorten } from '../../shorten/shorten.js';
import type { YourlsAction } from './yourls-context.js';
import { YourlsRefusal } from './yourls-failure.js';
import { titleOf, UNKNOWN_IP, yourlsDate } from './yourls-link.js';

/** A rule's refusal of one field, with YOURLS's code for it and the field named as YOURLS names it. */
function checked<T>(check: () => T, yourlsCode: string, linkletName: string, yourlsName: string): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof LinkletError) || error.kind !== 'invalid' || error instanceof YourlsRefusal) throw error;
    throw new YourlsRefusal('invalid', error.message.replaceAll(linkletName, yourlsName), yourlsCode);
  }
}

/**
 * `url` under Linklet's URL rules, its refusal told as YOURLS tells a loop (`error:noloop`) when
 * it points at this service: a URL that passes is parsed once, a refused one again for its host.
 */
function parseYourlsUrl(url: string, rules: OriginalUrlRules): string {
  try {
    return parseOriginalUrl(url, rules);
  } catch (error) {
    const host = serviceHostOf(url, rules.ownHosts);
    if (host === undefined) throw error;
    throw new YourlsRefusal(
      'invalid',
      `URL is a short URL: url points at this service (${host}), so the link would loop; shorten the address it leads to instead.`,
      'error:noloop',
    );
  }
}

/** `yourls_trim_long_string`: a long URL in a message is cut to 60 characters, `[...]` included. */
function trimLong(text: string): string {
  const characters = [...text];
  return characters.length > 60 ? `${characters.slice(0, 55).join('')}[...]` : text;
}

/**
 * `action=shorturl`: makes a link under Linklet's rules (`url`, optional `keyword` as its code,
 * `title`), expiring after `COMPAT_EXPIRE_DURATION`, and answers as `yourls_add_new_link` does.
 * Each field is checked before anything is made, so a bad one is YOURLS's `error:nourl` or
 * `error:keyword` with Linklet's explanation, and a URL on this service YOURLS's `error:noloop`.
 * The same URL may be shortened again (a new code), where YOURLS by default answers `error:url`.
 */
export const shortUrlAction: YourlsAction = async (params, caller, { settings }) => {
  const url = params.get('url') ?? '';
  if (url.trim() === '') {
    throw new YourlsRefusal('invalid', 'Missing or malformed URL: give the address to shorten as url.', 'error:nourl');
  }
  checked(() => parseYourlsUrl(url, settings.shorten.urlRules), 'error:nourl', 'original_url', 'url');
  const keyword = params.get('keyword') ?? '';
  const customCode =
    keyword === '' ? undefined : checked(() => normalizeCustomCode(keyword), 'error:keyword', 'custom_code', 'keyword');
  const title = checked(() => parseTitle(params.get('title') ?? ''), 'error:title', 'title', 'title');
  const ownerId = caller !== undefined && !caller.admin ? caller.ownerId : undefined;
  const result = await shorten(
    {
      originalUrl: url,
      customCode,
      expireDuration: settings.compatExpireDuration,
      ...(title !== null && { title }),
    },
    settings.shorten,
    ownerId,
  );
  if (!result.created) {
    throw new YourlsRefusal(
      'conflict',
      `Short URL ${result.code} already exists in database or is reserved; choose another keyword.`,
      'error:keyword',
    );
  }
  const { link } = result;
  const shorturl = shortUrlFor(settings.baseUrl, link.code);
  return {
    status: 200,
    body: {
      status: 'success',
      code: '',
      message: `${trimLong(link.originalUrl)} added to database`,
      errorCode: '',
      statusCode: '200',
      url: {
        keyword: link.code,
        url: link.originalUrl,
        title: titleOf(link),
        date: yourlsDate(link.createdAt, settings.timeZone),
        ip: UNKNOWN_IP,
      },
      title: titleOf(link),
      shorturl,
    },
    simple: shorturl,
  };
};
