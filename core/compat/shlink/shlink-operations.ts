import type { ApiOperationSpec, ApiResponseSpec } from '../../api-docs/api-operation.js';
import { fullPathsOf, SHLINK_ENDPOINTS, type ShlinkResponse } from './shlink-endpoints.js';

const PROBLEM_DOCUMENT = { schema: 'ShlinkProblem', mediaType: 'application/problem+json' };
const MEDIA_TYPES: Record<string, string> = {
  ShlinkProblem: 'application/problem+json',
  ShlinkHealth: 'application/health+json',
};
const PARAMETERS: Record<string, string> = {
  shortCode: 'The short code (its case does not matter).',
  tag: 'A tag of the key’s links (its case does not matter).',
  domain: '`DEFAULT`, or this server’s host: Linklet has one domain.',
};

const responseOf = (response: ShlinkResponse): ApiResponseSpec => {
  const mediaType = response.schema === undefined ? undefined : MEDIA_TYPES[response.schema];
  return { ...response, ...(mediaType && { mediaType }) };
};

/** `/rest/v3/short-urls/{shortCode}` → `shlinkV3ShortUrlsShortCode`-style prefix of an operation id. */
const versionOf = (path: string) => /^\/rest\/(v\d)\//.exec(path)?.[1]?.toUpperCase() ?? '';

/**
 * Shlink's endpoints as operations of the API documents (tag `compatibility`), once per path
 * they answer at (`/rest/v3/…`, `/rest/v2/…`, and `/rest/health`), each error in Shlink's
 * problem document.
 */
export function shlinkOperations(): ApiOperationSpec[] {
  return SHLINK_ENDPOINTS.flatMap((endpoint) =>
    fullPathsOf(endpoint).map((path): ApiOperationSpec => {
      const parameters = [...path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => ({
        name,
        description: PARAMETERS[name] ?? name,
      }));
      const name = endpoint.name.charAt(0).toUpperCase() + endpoint.name.slice(1);
      const responses: Record<number, ApiResponseSpec> = {};
      for (const [status, response] of Object.entries(endpoint.responses))
        responses[Number(status)] = responseOf(response);
      if (!endpoint.keyless) {
        responses[401] = responseOf({
          description: 'No key (`missing-authentication`), or one that is unknown or revoked (`invalid-api-key`).',
          schema: 'ShlinkProblem',
        });
      }
      return {
        method: endpoint.method,
        path,
        operationId: `shlink${versionOf(path)}${name}`,
        tag: 'compatibility',
        summary: `${endpoint.summary}${versionOf(path) ? ` (${versionOf(path).toLowerCase()})` : ''}`,
        description: endpoint.description,
        auth: endpoint.keyless ? 'none' : 'required',
        ...(parameters.length > 0 && { pathParameters: parameters }),
        responses,
        errorDocument: PROBLEM_DOCUMENT,
      };
    }),
  );
}
