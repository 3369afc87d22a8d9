import { MAX_CODE_LENGTH } from '../rules/code.js';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS } from '../rules/expiry.js';
import { trimTrailingSlashes } from '../rules/url.js';
import type { Dialect } from '../shorten/shorten-answer.js';
import { listApiOperations } from './api-catalog.js';
import { type ApiCatalogOptions, STATUS_MEANINGS } from './api-operation.js';
import { responsesOf } from './api-responses.js';

/**
 * What `GET /api.php` and `GET /api/v1/shorten` answer: enough for a person or a client to call
 * the API without other documentation. Built from the same catalog as the OpenAPI document
 * (`listApiOperations`), so the two cannot list different endpoints or statuses. The shape is
 * documented in docs/api.md.
 */
export function describeApi(dialect: Dialect, options: ApiCatalogOptions) {
  const base = trimTrailingSlashes(options.baseUrl);
  const operations = listApiOperations(options);
  const errors: Record<number, string> = {};
  const endpoints = operations.map((operation) => {
    const statuses = responsesOf(operation).map((response) => response.status);
    for (const status of statuses) {
      if (status >= 400) errors[status] = STATUS_MEANINGS[status] ?? operation.responses[status]?.description ?? '';
    }
    return {
      method: operation.method,
      path: operation.path,
      summary: operation.summary,
      description: operation.description,
      statuses,
      ...operation.describe,
    };
  });
  return {
    name: 'Linklet',
    description: 'URL shortener: POST a URL, get a short URL that redirects to it until it expires.',
    endpoint: dialect === 'legacy' ? `${base}/api.php` : `${base}/api/v1/shorten`,
    version: dialect,
    endpoints,
    expire_durations: EXPIRE_DURATIONS,
    default_expire_duration: DEFAULT_EXPIRE_DURATION,
    limits: {
      max_url_length: options.maxUrlLength,
      max_code_length: MAX_CODE_LENGTH,
      max_body_bytes: options.maxBodyBytes,
    },
    errors: Object.fromEntries(Object.entries(errors).sort(([a], [b]) => Number(a) - Number(b))),
  };
}
