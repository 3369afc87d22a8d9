import type { ApiOperationSpec } from '../../api-docs/api-operation.js';

/** `GET /api/v1/tags`: served where the store keeps owners' links (see `registerTagRoutes`). */
export function tagOperations(): ApiOperationSpec[] {
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
  ];
}
