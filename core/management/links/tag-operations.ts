import type { ApiCatalogOptions, ApiOperationSpec } from '../../api-docs/api-operation.js';
import { error } from '../../api-docs/operation-parts.js';
import { keyRequired, storeDown, tooLarge } from '../management-answers.js';

const tagParameter = {
  name: 'tag',
  description: 'The tag, percent-encoded as UTF-8; case does not matter.',
};
const noSuchTag = error('None of your links has this tag (another owner’s tags never show).');

/** The tag operations: served where the store keeps owners' links (see `registerTagRoutes`). */
export function tagOperations(options: ApiCatalogOptions): ApiOperationSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/tags',
      operationId: 'listTags',
      tag: 'links',
      summary: 'The tags of your links',
      description:
        'Every tag on your links (the administrator: on every link), any status, in tag order, with how many links carry it and their clicks added up. `GET /api/v1/links?tag=` lists the links of one.',
      auth: 'required',
      responses: {
        200: { description: 'The tags.', schema: 'TagList' },
        401: { description: 'No API key, or one that is unknown or revoked.', schema: 'Error' },
        503: { description: 'The link store cannot answer now.', schema: 'Error' },
      },
    },
    {
      method: 'PATCH',
      path: '/api/v1/tags/{tag}',
      operationId: 'renameTag',
      tag: 'links',
      summary: 'Rename a tag on all of your links',
      description:
        'Every one of your links (the administrator: every link) that carries the tag carries the new name instead, in its place; a link that has both keeps the new name once. Each changed link counts as changed for `changed_since`.',
      auth: 'required',
      pathParameters: [tagParameter],
      requestBody: { schema: 'TagRename', description: 'The new name.' },
      responses: {
        200: { description: 'The new name and how many links carry it now.', schema: 'TagEditAnswer' },
        400: error('The body is not a JSON object with `name`, or the name breaks the tag rule (the message says).'),
        401: keyRequired,
        404: noSuchTag,
        413: tooLarge(options),
        503: storeDown,
      },
    },
    {
      method: 'DELETE',
      path: '/api/v1/tags/{tag}',
      operationId: 'deleteTag',
      tag: 'links',
      summary: 'Remove a tag from all of your links',
      description:
        'The tag is taken off every one of your links (the administrator: every link) that carries it; the links stay. Each changed link counts as changed for `changed_since`.',
      auth: 'required',
      pathParameters: [tagParameter],
      responses: {
        200: { description: 'The tag and how many links it was removed from.', schema: 'TagEditAnswer' },
        401: keyRequired,
        404: noSuchTag,
        503: storeDown,
      },
    },
  ];
}
