import { DEFAULT_PAGE_SIZE, LIST_STATUSES, MAX_PAGE_SIZE, MAX_SEARCH_LENGTH } from '../management/links/list-params.js';
import { MAX_NAME_LENGTH } from '../management/owners/owner-name.js';
import { MAX_STATS_DAYS } from '../management/visits/visit-params.js';
import type { ApiCatalogOptions, ApiOperationSpec, ApiResponseSpec } from './api-operation.js';

const ERROR = 'Error';
const error = (description: string): ApiResponseSpec => ({ description, schema: ERROR });
const keyRequired = error('No API key, or one that is unknown or revoked.');
const adminOnly = error(
  "An owner's key: only the administrator's key (`API_KEY`) manages keys (and nobody over HTTP when it is not set).",
);
const tooLarge = (options: ApiCatalogOptions) =>
  error(`The request body is too large: it may be at most ${options.maxBodyBytes} bytes.`);
const storeDown = error('The link store cannot answer now.');
const noSuchLink = error(
  'No link of yours has this code: a missing link and another owner’s get the same answer. Also a code that cannot be one.',
);
const codeParameter = {
  name: 'code',
  description: 'The short code, percent-encoded as UTF-8; ASCII case does not matter.',
};

/**
 * The keys routes: served where the store keeps owners. Creating, listing and revoking keys is
 * the administrator's (403 for an owner's key); `GET /api/v1/me` answers any valid key.
 */
export function keyOperations(options: ApiCatalogOptions): ApiOperationSpec[] {
  return [
    {
      method: 'POST',
      path: '/api/v1/keys',
      operationId: 'createKey',
      tag: 'keys',
      summary: 'Create an owner and its key',
      description:
        "Administrator only. The key is in the answer and nowhere else: it is stored hashed and never shown again. Links made with it belong to the owner; the owner's key sees only those.",
      auth: 'required',
      requestBody: { schema: 'KeyRequest', description: "The owner's name." },
      responses: {
        201: { description: 'The key was made; `data.key` is shown only this once.', schema: 'KeyCreated' },
        400: error(
          `\`name\` is missing or not a string of 1 to ${MAX_NAME_LENGTH} characters (after trimming), or the body is not JSON.`,
        ),
        401: keyRequired,
        403: adminOnly,
        413: tooLarge(options),
        503: storeDown,
      },
    },
    {
      method: 'GET',
      path: '/api/v1/keys',
      operationId: 'listKeys',
      tag: 'keys',
      summary: 'List the keys',
      description: 'Administrator only. Every owner key, revoked ones too, without the keys themselves.',
      auth: 'required',
      responses: {
        200: { description: 'The keys, oldest first.', schema: 'KeyList' },
        401: keyRequired,
        403: adminOnly,
        503: storeDown,
      },
    },
    {
      method: 'DELETE',
      path: '/api/v1/keys/{id}',
      operationId: 'revokeKey',
      tag: 'keys',
      summary: 'Revoke a key',
      description:
        'Administrator only. The key is refused (401) from then on, on every instance; its links stay with their owner.',
      auth: 'required',
      pathParameters: [{ name: 'id', description: 'The key’s id, as `GET /api/v1/keys` lists it.' }],
      responses: {
        200: { description: 'The key was revoked.', schema: 'Done' },
        401: keyRequired,
        403: adminOnly,
        404: error('No key has this id (or it is not a number).'),
        503: storeDown,
      },
    },
    {
      method: 'GET',
      path: '/api/v1/me',
      operationId: 'whoAmI',
      tag: 'keys',
      summary: 'Whose key this is',
      description:
        'The name of the owner the key belongs to, and whether it is the administrator’s. A client checks a key with it.',
      auth: 'required',
      responses: {
        200: { description: "The key's owner.", schema: 'Me' },
        401: keyRequired,
        503: storeDown,
      },
    },
  ];
}

/**
 * The links routes: the caller's links (every link for the administrator's key). Another owner's
 * link answers as a missing one, so nobody learns which codes others hold.
 */
export function linkOperations(options: ApiCatalogOptions): ApiOperationSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/links',
      operationId: 'listLinks',
      tag: 'links',
      summary: 'List your links',
      description:
        'Newest first, a page at a time: follow `next_cursor` (null on the last page). With `changed_since`, every link changed since then instead, oldest change first, deletions as `{code, deleted: true, updated_at}`: a client keeps a copy in step with it.',
      auth: 'required',
      queryParameters: [
        {
          name: 'limit',
          description: `Links per page, ${DEFAULT_PAGE_SIZE} unless given.`,
          schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
        },
        {
          name: 'cursor',
          description: 'The `next_cursor` of the page before (signed by the server; of the same kind of listing).',
          schema: { type: 'string' },
        },
        {
          name: 'search',
          description: 'Only links whose code, original URL or title contains this text (ASCII case does not matter).',
          schema: { type: 'string', maxLength: MAX_SEARCH_LENGTH },
        },
        {
          name: 'status',
          description: 'Only links in this state.',
          schema: { enum: [...LIST_STATUSES], default: 'all' },
        },
        {
          name: 'tag',
          description: 'Only links with this tag (case does not matter).',
          schema: { type: 'string', maxLength: 32 },
        },
        {
          name: 'changed_since',
          description:
            'List changes since this ISO 8601 moment (at most 30 days back, as long as deletions are kept) instead; not with `search` or `status`.',
          schema: { type: 'string', format: 'date-time' },
        },
      ],
      responses: {
        200: { description: 'A page of links (or of changes).', schema: 'LinkList' },
        400: error(
          'A query parameter breaks its rule, and the message names it: `limit` outside 1–100, a `cursor` the server did not make, an unknown `status`, a `search` too long, a `changed_since` that is not a date or older than 30 days, or combined with `search`, `status` or `tag`, or a `tag` that is not one tag.',
        ),
        401: keyRequired,
        503: storeDown,
      },
    },
    {
      method: 'GET',
      path: '/api/v1/links/{code}',
      operationId: 'getLink',
      tag: 'links',
      summary: 'One of your links, with its clicks',
      description:
        'The link, its total clicks read fresh, and its clicks on each of the last 30 UTC days (oldest first).',
      auth: 'required',
      pathParameters: [codeParameter],
      responses: {
        200: { description: 'The link.', schema: 'LinkDetailAnswer' },
        401: keyRequired,
        404: noSuchLink,
        503: storeDown,
      },
    },
    {
      method: 'PATCH',
      path: '/api/v1/links/{code}',
      operationId: 'changeLink',
      tag: 'links',
      summary: 'Change, disable, renew, title or tag one of your links',
      description:
        'A new target (the create rules apply to it), `disabled` (a disabled link answers 410 until enabled again), `title`, `tags` (the whole list), `expire_duration` (renew: it expires that long from now; an expired link whose code nobody has taken since is active again, a disabled one stays disabled), or several. Every instance follows within a second.',
      auth: 'required',
      pathParameters: [codeParameter],
      requestBody: {
        schema: 'LinkPatch',
        description: 'What to change: `original_url`, `disabled`, `title`, `tags`, `expire_duration`, or several.',
      },
      responses: {
        200: { description: 'The link as it is now.', schema: 'LinkAnswer' },
        400: error(
          'The body is not a JSON object, has none of the fields, one has the wrong type, the URL breaks the create rules, a title is too long, a tag breaks the tag rule, or `expire_duration` is not one of the four (the message names it).',
        ),
        401: keyRequired,
        404: noSuchLink,
        410: error('The link has expired and can no longer be changed (renew it with `expire_duration`).'),
        413: tooLarge(options),
        503: storeDown,
      },
    },
    {
      method: 'GET',
      path: '/api/v1/links/{code}/stats',
      operationId: 'getLinkStats',
      tag: 'links',
      summary: 'Where the clicks of one of your links come from',
      description:
        'Clicks on each UTC day of the range (bots are visits, not clicks) and their total, bot visits, and the top 10 referrer hosts, countries, browsers, operating systems and device types (biggest first, then `other`). A visit that sent `DNT: 1` or `Sec-GPC: 1` keeps only its time: it counts under `unknown`. Visits older than the retention are folded into daily counts, so older ranges still add up.',
      auth: 'required',
      pathParameters: [codeParameter],
      queryParameters: [
        {
          name: 'from',
          description: 'The first UTC day (YYYY-MM-DD), 29 days before `to` unless given.',
          schema: { type: 'string', format: 'date' },
        },
        {
          name: 'to',
          description: 'The last UTC day (YYYY-MM-DD), included; today unless given.',
          schema: { type: 'string', format: 'date' },
        },
      ],
      responses: {
        200: { description: 'The stats.', schema: 'LinkStatsAnswer' },
        400: error(
          `\`from\` or \`to\` is not a real day written YYYY-MM-DD, \`from\` is after \`to\`, or they are more than ${MAX_STATS_DAYS} days apart (the message says which).`,
        ),
        401: keyRequired,
        404: noSuchLink,
        503: storeDown,
      },
    },
    {
      method: 'GET',
      path: '/api/v1/links/{code}/visits',
      operationId: 'listLinkVisits',
      tag: 'links',
      summary: 'The visits of one of your links',
      description:
        'Kept visits, newest first, a page at a time (follow `next_cursor`): time, referrer host (`direct` when none), country, browser, OS, device type and whether a bot. Nothing that identifies a person: no address is ever stored, and a visit that sent `DNT: 1` or `Sec-GPC: 1` has only its time. `?format=csv` exports every kept visit instead.',
      auth: 'required',
      pathParameters: [codeParameter],
      queryParameters: [
        {
          name: 'limit',
          description: `Visits per page, ${DEFAULT_PAGE_SIZE} unless given.`,
          schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
        },
        {
          name: 'cursor',
          description: 'The `next_cursor` of the page before (signed by the server).',
          schema: { type: 'string' },
        },
        {
          name: 'format',
          description: '`csv`: every kept visit as an attachment (`at,referrer,country,browser,os,device,bot`).',
          schema: { enum: ['json', 'csv'], default: 'json' },
        },
      ],
      responses: {
        200: {
          description: 'A page of visits (or, with `format=csv`, all of them).',
          schema: 'VisitList',
          alternatives: {
            'text/csv': { type: 'string', description: 'A header row, then one visit per row (CRLF), newest first.' },
          },
        },
        400: error(
          '`limit` outside 1–100, a `cursor` the server did not make, or a `format` other than `json` or `csv`.',
        ),
        401: keyRequired,
        404: noSuchLink,
        503: storeDown,
      },
    },
    {
      method: 'DELETE',
      path: '/api/v1/links/{code}',
      operationId: 'deleteLink',
      tag: 'links',
      summary: 'Delete one of your links',
      description:
        'The link is gone (its code is free again) on every instance within a second; `changed_since` listings show the deletion for 30 days.',
      auth: 'required',
      pathParameters: [codeParameter],
      responses: {
        200: { description: 'The link was deleted.', schema: 'Done' },
        401: keyRequired,
        404: noSuchLink,
        503: storeDown,
      },
    },
  ];
}
