import { type ApiOperationSpec, type ApiResponseSpec, STATUS_MEANINGS } from './api-operation.js';

// What the features' operation lists share: the error schema's name and the usual answers.

export const ERROR = 'Error';

/** An error answer described by its status's general meaning, plus what it means here. */
export const withMeaning = (status: number, more = ''): ApiResponseSpec => ({
  description: `${STATUS_MEANINGS[status]}${more}`,
  schema: ERROR,
});

/** An error answer with its own description. */
export const error = (description: string): ApiResponseSpec => ({ description, schema: ERROR });

/** The API description at GET of a path (`GET /api.php`, `GET /api/v1/shorten`, `GET /`). */
export const describeOperation = (path: string, operationId: string, which: string): ApiOperationSpec => ({
  method: 'GET',
  path,
  operationId,
  tag: 'about',
  summary: `Describe the API (${which})`,
  description: 'Endpoints, parameters, rules, limits and error statuses, for a person or a client to read.',
  auth: 'none',
  responses: { 200: { description: 'The API description.', schema: 'ApiDescription' } },
});
