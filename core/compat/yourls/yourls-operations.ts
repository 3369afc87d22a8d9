import type { ApiOperationSpec, ApiResponseSpec } from '../../api-docs/api-operation.js';
import { YOURLS_API_PATH } from '../../http/paths.js';
import { YOURLS_ACTIONS } from './yourls-actions.js';
import { MAX_STATS_LIMIT } from './yourls-stats.js';

const FIELDS: Array<{ name: string; description: string; schema: object }> = [
  { name: 'action', description: 'What to do.', schema: { enum: Object.keys(YOURLS_ACTIONS) } },
  {
    name: 'signature',
    description: 'A Linklet API key (an owner’s, or the administrator’s `API_KEY`). A header key works too.',
    schema: { type: 'string' },
  },
  {
    name: 'format',
    description: '`xml` (absent), `json`, or any other value for plain text (`simple`); `jsonp` is refused.',
    schema: { type: 'string' },
  },
  { name: 'url', description: '`shorturl`: the URL to shorten.', schema: { type: 'string' } },
  {
    name: 'keyword',
    description: '`shorturl`: the code to use, under Linklet’s code rules.',
    schema: { type: 'string' },
  },
  { name: 'title', description: '`shorturl`: the link’s title (at most 200 characters).', schema: { type: 'string' } },
  {
    name: 'shorturl',
    description: '`expand`, `url-stats`: a code, or this server’s short URL of it.',
    schema: { type: 'string' },
  },
  {
    name: 'filter',
    description: '`stats`: `top` (the default), `bottom`, `last` or `rand`.',
    schema: { type: 'string' },
  },
  {
    name: 'limit',
    description: `\`stats\`: how many links to list (none when absent), at most ${MAX_STATS_LIMIT}.`,
    schema: { type: 'string' },
  },
  { name: 'start', description: '`stats`: how many to skip first.', schema: { type: 'string' } },
];

const formFields = {
  type: 'object',
  properties: Object.fromEntries(FIELDS.map(({ name, schema }) => [name, schema])),
};
const asText = (what: string) => ({
  'application/xml': {
    type: 'string',
    description: `${what} as XML (\`format=xml\` or none): \`<root>\` and one element per member.`,
  },
  'text/plain': { type: 'string', description: `${what} alone (\`format=simple\` or an unknown format).` },
});
const failure = (description: string, schema = 'YourlsFailure'): ApiResponseSpec => ({
  description,
  schema,
  alternatives: asText('The refusal'),
});
// Answered by the handler around the route (a 405, the body limit, the rate limiter, a failure
// that is logged): YOURLS's shape, in JSON, as the format asked for is not known there.
const aroundRoute = (description: string, schema = 'YourlsFailure'): ApiResponseSpec => ({ description, schema });

// The server's own refusals on this path (408, 431: before any route) are YOURLS's shape too, or
// Linklet's envelope when the request was not HTTP enough to have a path.
const AROUND_ROUTE_DOCUMENT = { schema: 'YourlsFailureOrError', mediaType: 'application/json' };

const responses: Record<number, ApiResponseSpec> = {
  200: {
    description: 'The action’s answer: the short URL, the long URL, stats, or the version.',
    schema: 'YourlsAnswer',
    alternatives: asText('The answer'),
  },
  400: failure(
    'A field breaks a rule (`error:nourl`, `error:keyword` for a bad or taken keyword, `error:title`), an unknown action, `format=jsonp`, a body that is not a UTF-8 form; or a request that is not valid HTTP (Linklet’s envelope).',
    'YourlsFailureOrError',
  ),
  403: failure(
    '"Please log in": no key where one is needed, a wrong one, or YOURLS’s time-limited signature or password.',
  ),
  404: failure('`expand` or `url-stats` of a link that is not the caller’s (or does not exist).'),
  405: { ...aroundRoute('The path does not take this method.'), headers: { Allow: 'The methods the path takes.' } },
  413: aroundRoute('The form is too large.', 'YourlsFailureOrError'),
  429: {
    ...aroundRoute('Too many requests from this client or key (`error:flood`).'),
    headers: { 'Retry-After': 'Seconds to wait before trying again.' },
  },
  500: aroundRoute('Unexpected failure; the log has details under the request id.', 'YourlsFailureOrError'),
  503: aroundRoute('The link store cannot answer or take the link now.'),
};

const description = (how: string) =>
  `YOURLS’s API for its clients (ShareX, n8n, browser extensions): \`action\` = shorturl, expand, url-stats, stats, db-stats or version, on the caller’s links, answered as YOURLS answers. ${how} Links made here expire after \`COMPAT_EXPIRE_DURATION\`. See docs/yourls.md.`;

/** `/yourls-api.php`, GET and POST: one operation each, the action chosen by a field. */
export function yourlsOperations(): ApiOperationSpec[] {
  return [
    {
      method: 'GET',
      path: YOURLS_API_PATH,
      operationId: 'yourlsApiGet',
      tag: 'compatibility',
      summary: 'YOURLS API (fields in the query)',
      description: description('The fields are in the query.'),
      auth: 'signature',
      queryParameters: FIELDS,
      responses,
      errorDocument: AROUND_ROUTE_DOCUMENT,
    },
    {
      method: 'POST',
      path: YOURLS_API_PATH,
      operationId: 'yourlsApiPost',
      tag: 'compatibility',
      summary: 'YOURLS API (fields in a form)',
      description: description('The fields are in the query or a form; the form’s win.'),
      auth: 'signature',
      queryParameters: FIELDS,
      requestBody: {
        description: 'The fields as a form.',
        alternatives: { 'application/x-www-form-urlencoded': formFields, 'multipart/form-data': formFields },
      },
      responses,
      errorDocument: AROUND_ROUTE_DOCUMENT,
    },
  ];
}
