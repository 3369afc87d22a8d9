import type { ApiCatalogOptions, ApiOperationSpec } from '../../api-docs/api-operation.js';
import { error } from '../../api-docs/operation-parts.js';
import { adminOnly, keyRequired, storeDown, tooLarge } from '../management-answers.js';
import { MAX_NAME_LENGTH } from './owner-name.js';

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
