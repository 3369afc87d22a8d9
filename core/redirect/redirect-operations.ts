import type { ApiOperationSpec, ApiResponseSpec } from '../api-docs/api-operation.js';
import { ERROR, withMeaning } from '../api-docs/operation-parts.js';
import { passwordShortUrlAnswers } from '../passwords/password-schemas.js';

const codeParameter = {
  name: 'code',
  description: 'The short code, percent-encoded as UTF-8 (`한글` is `%ED%95%9C%EA%B8%80`); ASCII case does not matter.',
};

/** The short URLs: `/{code}` (legacy links) and `/{code}/` (v1 links). */
export function redirectOperations(): ApiOperationSpec[] {
  const shortUrlAnswers = (): Record<number, ApiResponseSpec> => ({
    302: {
      description:
        "The link is active: redirect to the original URL (its ASCII form), or to the target of its first redirect rule whose conditions all hold; with `forward_query`, the visit's query parameters are added (the visit's win).",
      headers: {
        Location: 'The original URL: punycode host, percent-encoded path.',
        'Cache-Control':
          "`private, max-age=<seconds>`: the smaller of the seconds the link has left and the server's `REDIRECT_CACHE_SECONDS` (default 60); `no-store` when that is 0. `private, no-store` for a link with redirect rules, a visit limit or a start (`valid_since`): the next visit may be sent elsewhere or refused.",
      },
    },
    404: { description: 'No link has this code.', schema: ERROR, page: true },
    410: {
      description:
        'The link expired, was disabled, is not open yet (`valid_since`) or has had all its visits (`max_visits`); the page and message say which.',
      schema: ERROR,
      page: true,
    },
    503: withMeaning(503),
    ...passwordShortUrlAnswers(),
  });
  const resolveOperation = (path: string, operationId: string, summary: string): ApiOperationSpec => ({
    method: 'GET',
    path,
    operationId,
    tag: 'redirect',
    summary,
    description:
      "Redirects to the original URL while the link is active; 404 for an unknown code (or a malformed percent-encoding), 410 once it expired. A browser gets a small page for 404 and 410. A link with a password answers 302 only with the right one in `X-Link-Password` (or from its page's form, a POST of `password` to the same URL); that 302 is `Cache-Control: no-store`.",
    auth: 'none',
    pathParameters: [codeParameter],
    responses: shortUrlAnswers(),
  });

  return [
    resolveOperation('/{code}', 'resolve', 'Follow a short URL'),
    resolveOperation('/{code}/', 'resolveSlash', 'Follow a v1 short URL'),
  ];
}
