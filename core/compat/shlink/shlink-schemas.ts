import { strictObject } from '../../api-docs/schema-parts.js';
import { MAX_REDIRECT_RULES, MAX_RULE_CONDITIONS, REDIRECT_CONDITION_TYPES } from '../../rules/redirect-rule.js';

// The JSON Schemas of Shlink's answers, as Shlink 4.4 writes them (see `short-url-view.ts`).

const SHLINK_DATE = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\+00:00$' };
const COUNT = { type: 'integer', minimum: 0 };
const VISITS_SUMMARY = strictObject({ total: COUNT, nonBots: COUNT, bots: COUNT });
const PAGINATION = strictObject({
  currentPage: { type: 'integer', minimum: 1 },
  pagesCount: COUNT,
  itemsPerPage: { type: 'integer', minimum: 1 },
  itemsInCurrentPage: COUNT,
  totalItems: COUNT,
});
const pageOf = (item: object) => strictObject({ data: { type: 'array', items: item }, pagination: PAGINATION });
const NO_REDIRECTS = strictObject({
  baseUrlRedirect: { type: 'null' },
  regular404Redirect: { type: 'null' },
  invalidShortUrlRedirect: { type: 'null' },
});
const SHORT_URL = strictObject({
  shortUrl: { type: 'string', format: 'uri' },
  shortCode: { type: 'string', minLength: 1 },
  longUrl: { type: 'string', minLength: 1 },
  dateCreated: SHLINK_DATE,
  tags: { type: 'array', items: { type: 'string' } },
  meta: strictObject({
    validSince: { oneOf: [{ type: 'null' }, SHLINK_DATE] },
    validUntil: SHLINK_DATE,
    maxVisits: { type: ['integer', 'null'], minimum: 1 },
  }),
  domain: { type: 'null' },
  title: { type: ['string', 'null'] },
  crawlable: { const: false },
  forwardQuery: { type: 'boolean' },
  visitsSummary: VISITS_SUMMARY,
  hasRedirectRules: { type: 'boolean' },
});
const CONDITION = strictObject({
  type: { enum: [...REDIRECT_CONDITION_TYPES] },
  matchKey: { type: ['string', 'null'], description: 'The query parameter (the three query kinds); else null.' },
  matchValue: { type: ['string', 'null'], description: 'What is matched; null for the two kinds without a value.' },
});
const REDIRECT_RULE = strictObject({
  longUrl: { type: 'string', minLength: 1 },
  priority: { type: 'integer', minimum: 1 },
  conditions: { type: 'array', minItems: 1, maxItems: MAX_RULE_CONDITIONS, items: CONDITION },
});
const VISIT = strictObject(
  {
    referer: { type: 'string' },
    date: SHLINK_DATE,
    userAgent: { const: '' },
    visitLocation: {
      oneOf: [
        { type: 'null' },
        strictObject({
          countryCode: { type: 'string' },
          countryName: { type: ['string', 'null'] },
          regionName: { type: 'null' },
          cityName: { type: 'null' },
          latitude: { type: 'null' },
          longitude: { type: 'null' },
          timezone: { type: 'null' },
          isEmpty: { const: false },
        }),
      ],
    },
    potentialBot: { type: 'boolean' },
    visitedUrl: { type: 'string' },
  },
  [],
);

/** Shlink's answers by name, for the API documents. */
export const shlinkSchemas = {
  ShlinkProblem: {
    type: 'object',
    required: ['type', 'title', 'detail', 'status'],
    properties: {
      type: { type: 'string', pattern: '^https://shlink\\.io/api/error/[a-z-]+$' },
      title: { type: 'string', minLength: 1 },
      detail: { type: 'string', minLength: 1 },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      invalidElements: { type: 'array', items: { type: 'string' } },
      shortCode: { type: 'string' },
      customSlug: { type: 'string' },
      tag: { type: 'string' },
      authority: { type: 'string' },
      expectedHeaders: { type: 'array', items: { type: 'string' } },
    },
    additionalProperties: false,
  },
  ShlinkHealth: strictObject({
    status: { enum: ['pass', 'fail'] },
    version: { type: 'string' },
    links: strictObject({ about: { type: 'string' }, project: { type: 'string' } }),
  }),
  ShlinkShortUrl: SHORT_URL,
  ShlinkShortUrlList: strictObject({ shortUrls: pageOf(SHORT_URL) }),
  ShlinkVisitList: strictObject({ visits: pageOf(VISIT) }),
  ShlinkVisitsOverview: strictObject({
    visits: strictObject({ nonOrphanVisits: VISITS_SUMMARY, orphanVisits: VISITS_SUMMARY }),
  }),
  ShlinkDeletedVisits: strictObject({ deletedVisits: COUNT }),
  ShlinkTagList: strictObject({ tags: pageOf({ type: 'string' }) }),
  ShlinkTagStatsList: strictObject({
    tags: pageOf(strictObject({ tag: { type: 'string' }, shortUrlsCount: COUNT, visitsSummary: VISITS_SUMMARY })),
  }),
  ShlinkDomainList: strictObject({
    domains: strictObject({
      data: {
        type: 'array',
        items: strictObject({ domain: { type: 'string' }, isDefault: { const: true }, redirects: NO_REDIRECTS }),
      },
      defaultRedirects: NO_REDIRECTS,
    }),
  }),
  ShlinkRedirectRules: strictObject({
    defaultLongUrl: { type: 'string' },
    redirectRules: { type: 'array', maxItems: MAX_REDIRECT_RULES, items: REDIRECT_RULE },
  }),
};
