import type { ApiCatalogOptions, ApiOperationSpec } from '../../api-docs/api-operation.js';
import { error } from '../../api-docs/operation-parts.js';
import { codeParameter, keyRequired, noSuchLink, storeDown, tooLarge } from '../management-answers.js';
import { visitOperations } from '../visits/visit-operations.js';
import { DEFAULT_PAGE_SIZE, LIST_STATUSES, MAX_PAGE_SIZE, MAX_SEARCH_LENGTH } from './list-params.js';

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
          description:
            'Only links whose code, original URL or title contains this text (ASCII case does not matter; the text is compared in Unicode NFC, as codes and titles are kept).',
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
    ...visitOperations(),
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
