import { SHLINK_API_PREFIXES, SHLINK_HEALTH_PATH } from '../../http/paths.js';
import { MAX_VISITS_PER_PAGE } from './shlink-visit-query.js';
import { VISITS_ACROSS_LINKS_BOUNDS } from './visits-across-links.js';

/** One answer of an endpoint: its description and its body's schema (`ShlinkSchemas`). */
export interface ShlinkResponse {
  description: string;
  schema?: string;
}

/** One endpoint of Shlink's API as Linklet serves it, below each prefix (`/rest/v3`, `/rest/v2`). */
export interface ShlinkEndpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below the prefix, as an OpenAPI template: `/short-urls/{shortCode}`. */
  path: string;
  /** The operation's name (`ShlinkApiClient`'s method where it has one). */
  name: string;
  summary: string;
  description: string;
  /** Health alone answers without a key, as in Shlink. */
  keyless?: boolean;
  /** What the endpoint itself answers, by status. */
  responses: Record<number, ShlinkResponse>;
}

const PROBLEM = 'ShlinkProblem';
const notFound = {
  description: 'No such short URL among the key’s links, or `?domain=` names another domain (`short-url-not-found`).',
  schema: PROBLEM,
};
const invalid = (what: string) => ({ description: `${what} (\`invalid-data\`, naming the fields).`, schema: PROBLEM });
const unsupported = (what: string) => ({
  description: `Not supported by Linklet: ${what} (\`not-supported\`).`,
  schema: PROBLEM,
});
const unavailable = { description: 'The link store cannot answer now.', schema: PROBLEM };
// The query and bounds of the lists of visits across links, as their documents state them.
const ACROSS = `\`page\`, \`itemsPerPage\` up to ${MAX_VISITS_PER_PAGE}, \`startDate\`, \`endDate\`, \`excludeBots\`; at most ${VISITS_ACROSS_LINKS_BOUNDS.links} links and ${VISITS_ACROSS_LINKS_BOUNDS.visits} kept visits read`;
const tooMany = {
  description:
    'A parameter is not valid (`invalid-data`), or more links or kept visits than the bounds (`too-many-visits`): list one short URL’s visits instead.',
  schema: PROBLEM,
};

/**
 * Every endpoint of Shlink's REST API a Shlink client calls, as Linklet serves it: the one
 * list the routes register, the 405s are built from and the API documents describe. Those
 * Linklet cannot honour are here too, answering a problem that says so rather than a 404.
 */
export const SHLINK_ENDPOINTS: readonly ShlinkEndpoint[] = [
  {
    method: 'GET',
    path: '/health',
    name: 'health',
    summary: 'Shlink: health',
    description: 'Whether the server and its store answer, and the Shlink API level served (4.4.0). No key needed.',
    keyless: true,
    responses: {
      200: { description: 'It works (`status: pass`).', schema: 'ShlinkHealth' },
      503: { description: 'The store does not answer (`status: fail`).', schema: 'ShlinkHealth' },
    },
  },
  {
    method: 'GET',
    path: '/short-urls',
    name: 'listShortUrls',
    summary: 'Shlink: list short URLs',
    description:
      'The key’s links, a page at a time (`page`, `itemsPerPage` up to 1000, -1 for pages of 1000), filtered by `searchTerm`, one `tags[]` and `excludePastValidUntil`, ordered by `orderBy`. See docs/shlink.md.',
    responses: {
      200: { description: 'A page of short URLs.', schema: 'ShlinkShortUrlList' },
      400: invalid('A filter Linklet cannot apply, or a value out of range'),
      503: unavailable,
    },
  },
  {
    method: 'POST',
    path: '/short-urls',
    name: 'createShortUrl',
    summary: 'Shlink: create a short URL',
    description:
      'Makes a link (`longUrl`, `customSlug`, `validUntil` at most 31 days away, `tags`, `title`, `validSince`, `maxVisits`, `forwardQuery`, `findIfExists`); without `validUntil` it lives `COMPAT_EXPIRE_DURATION`; without `forwardQuery` it forwards no query (Linklet’s default).',
    responses: {
      200: { description: 'The new short URL (or the existing one, with `findIfExists`).', schema: 'ShlinkShortUrl' },
      400: invalid('A field breaks a rule, or the customSlug is taken (`non-unique-slug`)'),
      503: unavailable,
    },
  },
  {
    method: 'GET',
    path: '/short-urls/{shortCode}',
    name: 'getShortUrl',
    summary: 'Shlink: one short URL',
    description: 'One of the key’s links, any status.',
    responses: { 200: { description: 'The short URL.', schema: 'ShlinkShortUrl' }, 404: notFound, 503: unavailable },
  },
  {
    method: 'PATCH',
    path: '/short-urls/{shortCode}',
    name: 'updateShortUrl',
    summary: 'Shlink: edit a short URL',
    description:
      'Changes `longUrl`, `title`, `tags`, `validSince`, `maxVisits`, `forwardQuery` (`null` removes a start or a limit); a new `validUntil` renews the link (an expired one too).',
    responses: {
      200: { description: 'The short URL as changed.', schema: 'ShlinkShortUrl' },
      400: invalid('A field breaks a rule'),
      404: notFound,
      410: { description: 'The link has expired: renew it with validUntil.', schema: PROBLEM },
      503: unavailable,
    },
  },
  {
    method: 'DELETE',
    path: '/short-urls/{shortCode}',
    name: 'deleteShortUrl',
    summary: 'Shlink: delete a short URL',
    description: 'Deletes the link; its code is free again.',
    responses: { 204: { description: 'Deleted.' }, 404: notFound, 503: unavailable },
  },
  {
    method: 'GET',
    path: '/short-urls/{shortCode}/visits',
    name: 'getShortUrlVisits',
    summary: 'Shlink: visits of a short URL',
    description:
      'The visits Linklet keeps (the last `VISITS_RETENTION_DAYS`), newest first, a page at a time (up to 5000); `startDate`, `endDate`, `excludeBots`.',
    responses: {
      200: { description: 'A page of visits.', schema: 'ShlinkVisitList' },
      400: invalid('A parameter is not valid'),
      404: notFound,
      503: unavailable,
    },
  },
  {
    method: 'DELETE',
    path: '/short-urls/{shortCode}/visits',
    name: 'deleteShortUrlVisits',
    summary: 'Shlink: delete the visits of a short URL',
    description:
      'Deletes the link’s kept visits and its click and visit counts in one step; the link stays and counts again from zero.',
    responses: {
      200: { description: 'How many visits were deleted (people’s and bots’).', schema: 'ShlinkDeletedVisits' },
      404: notFound,
      503: unavailable,
    },
  },
  {
    method: 'GET',
    path: '/short-urls/{shortCode}/redirect-rules',
    name: 'getShortUrlRedirectRules',
    summary: 'Shlink: redirect rules of a short URL',
    description:
      'The long URL and the link’s rules in order (`priority` from 1): the first whose conditions all hold decides.',
    responses: { 200: { description: 'The rules.', schema: 'ShlinkRedirectRules' }, 404: notFound, 503: unavailable },
  },
  {
    method: 'POST',
    path: '/short-urls/{shortCode}/redirect-rules',
    name: 'setShortUrlRedirectRules',
    summary: 'Shlink: set the redirect rules of a short URL',
    description:
      'Replaces the rules (`{redirectRules: [{longUrl, conditions: [{type, matchKey, matchValue}]}]}`, in order; `[]` removes them): at most 20, each with 1–10 conditions of the kinds `device`, `browser`, `language`, `query-param`, `any-value-query-param`, `valueless-query-param`, `geolocation-country-code`, `before-date`, `after-date`, `ip-address`.',
    responses: {
      200: { description: 'The rules as set.', schema: 'ShlinkRedirectRules' },
      400: invalid(
        'A rule breaks a rule: more than 20, a `longUrl` the create rules refuse, 0 or more than 10 conditions, or a condition of another kind or value',
      ),
      404: notFound,
      410: { description: 'The link has expired: renew it with validUntil first.', schema: PROBLEM },
      503: unavailable,
    },
  },
  {
    // Shlink 4.4 sets redirect rules by POST or PATCH alike; both answer the same here.
    method: 'PATCH',
    path: '/short-urls/{shortCode}/redirect-rules',
    name: 'patchShortUrlRedirectRules',
    summary: 'Shlink: set the redirect rules of a short URL (PATCH)',
    description: 'As `POST`: replaces the rules.',
    responses: {
      200: { description: 'The rules as set.', schema: 'ShlinkRedirectRules' },
      400: invalid(
        'A rule breaks a rule: more than 20, a `longUrl` the create rules refuse, 0 or more than 10 conditions, or a condition of another kind or value',
      ),
      404: notFound,
      410: { description: 'The link has expired: renew it with validUntil first.', schema: PROBLEM },
      503: unavailable,
    },
  },
  {
    method: 'GET',
    path: '/visits',
    name: 'getVisitsOverview',
    summary: 'Shlink: visits overview',
    description: 'The clicks of the key’s links added up; orphan visits are none (Linklet records none).',
    responses: { 200: { description: 'The totals.', schema: 'ShlinkVisitsOverview' }, 503: unavailable },
  },
  {
    method: 'GET',
    path: '/visits/orphan',
    name: 'getOrphanVisits',
    summary: 'Shlink: orphan visits',
    description: 'Linklet records no visit that matched no link: always an empty page.',
    responses: {
      200: { description: 'An empty page.', schema: 'ShlinkVisitList' },
      400: invalid('A parameter is not valid'),
    },
  },
  {
    method: 'DELETE',
    path: '/visits/orphan',
    name: 'deleteOrphanVisits',
    summary: 'Shlink: delete orphan visits',
    description: 'There are none: 0 deleted.',
    responses: { 200: { description: 'Nothing deleted.', schema: 'ShlinkDeletedVisits' } },
  },
  {
    method: 'GET',
    path: '/visits/non-orphan',
    name: 'getNonOrphanVisits',
    summary: 'Shlink: every visit',
    description: `The kept visits of all the key’s links, newest first across links (${ACROSS}); \`domain\` other than this server’s gives an empty page.`,
    responses: { 200: { description: 'A page of visits.', schema: 'ShlinkVisitList' }, 400: tooMany, 503: unavailable },
  },
  {
    method: 'GET',
    path: '/tags',
    name: 'listTags',
    summary: 'Shlink: tags',
    description: 'The tags of the key’s links, in order (`searchTerm`, `page`, `itemsPerPage`).',
    responses: { 200: { description: 'The tags.', schema: 'ShlinkTagList' }, 503: unavailable },
  },
  {
    method: 'PUT',
    path: '/tags',
    name: 'editTag',
    summary: 'Shlink: rename a tag',
    description:
      'Renames `oldName` to `newName` on every one of the key’s short URLs; one that has both keeps `newName` once (Shlink refuses a taken name; Linklet merges).',
    responses: {
      204: { description: 'Renamed.' },
      400: invalid('A name that is not a tag'),
      404: { description: 'None of the key’s short URLs has `oldName` (`tag-not-found`).', schema: PROBLEM },
      503: unavailable,
    },
  },
  {
    method: 'DELETE',
    path: '/tags',
    name: 'deleteTags',
    summary: 'Shlink: delete tags',
    description:
      'Removes each `tags[]` from every one of the key’s short URLs (the links stay); unknown tags are nothing to delete.',
    responses: { 204: { description: 'Deleted.' }, 503: unavailable },
  },
  {
    method: 'GET',
    path: '/tags/stats',
    name: 'tagsStats',
    summary: 'Shlink: tags with their links and visits',
    description: 'Each tag of the key’s links with how many carry it and their clicks.',
    responses: { 200: { description: 'The tags.', schema: 'ShlinkTagStatsList' }, 503: unavailable },
  },
  {
    method: 'GET',
    path: '/tags/{tag}/visits',
    name: 'getTagVisits',
    summary: 'Shlink: visits of a tag',
    description: `The kept visits of the key’s links with this tag, newest first across links (${ACROSS}).`,
    responses: {
      200: { description: 'A page of visits.', schema: 'ShlinkVisitList' },
      400: tooMany,
      404: { description: 'None of the key’s links has this tag (`tag-not-found`).', schema: PROBLEM },
      503: unavailable,
    },
  },
  {
    method: 'GET',
    path: '/domains',
    name: 'listDomains',
    summary: 'Shlink: domains',
    description: 'The one domain, from the base URL; no not-found redirects (Linklet answers those itself).',
    responses: { 200: { description: 'The domain.', schema: 'ShlinkDomainList' } },
  },
  {
    method: 'PATCH',
    path: '/domains/redirects',
    name: 'editDomainRedirects',
    summary: 'Shlink: set a domain’s not-found redirects',
    description: 'Refused: Linklet answers unknown and expired codes with its own pages.',
    responses: { 400: unsupported('not-found redirects') },
  },
  {
    method: 'GET',
    path: '/domains/{domain}/visits',
    name: 'getDomainVisits',
    summary: 'Shlink: visits of a domain',
    description: `\`DEFAULT\` or this server’s host: the kept visits of all the key’s links, newest first across links (${ACROSS}).`,
    responses: {
      200: { description: 'A page of visits.', schema: 'ShlinkVisitList' },
      400: tooMany,
      404: { description: 'Another domain: Linklet has one (`domain-not-found`).', schema: PROBLEM },
      503: unavailable,
    },
  },
  {
    method: 'GET',
    path: '/mercure-info',
    name: 'mercureInfo',
    summary: 'Shlink: live updates',
    description: 'Linklet has no Mercure hub (`mercure-not-configured`, 501): clients refresh instead.',
    responses: { 501: { description: 'Not configured.', schema: PROBLEM } },
  },
];

/** The full paths an endpoint answers at: below every prefix, and health at `/rest/health` too. */
export function fullPathsOf(endpoint: ShlinkEndpoint): string[] {
  const paths = SHLINK_API_PREFIXES.map((prefix) => `${prefix.slice(0, -1)}${endpoint.path}`);
  return endpoint.name === 'health' ? [SHLINK_HEALTH_PATH, ...paths] : paths;
}

/** The methods a path takes (with HEAD for a GET, and the CORS preflight): its 405's `Allow`. */
export function allowedMethodsOf(path: string): string[] {
  const methods = SHLINK_ENDPOINTS.filter((endpoint) => endpoint.path === path).map((endpoint) => endpoint.method);
  return [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
}

/**
 * Every method some Shlink endpoint takes, for the preflight of Shlink's paths: `PUT` too, which
 * Linklet's own API never takes, since Shlink's web client renames tags with `PUT /tags` and must
 * be let through to read the `not-supported` problem that answers it.
 */
export function shlinkMethods(): string[] {
  const methods = new Set<string>(SHLINK_ENDPOINTS.map((endpoint) => endpoint.method));
  return [...methods, 'HEAD', 'OPTIONS'];
}
