import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { ERROR_PAGE_POLICY, SECURITY_HEADERS } from '../../core/http/security-headers.js';
import { WEB_APP_CSP } from '../../core/site/web-app.js';
import type { FuzzRequest } from './fuzz-requests.js';
import type { WireResponse } from './raw-exchange.js';

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is read as plain JSON.
type Json = any;

const DOC_ID = 'https://linklet.invalid/openapi.json';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE']);
/** Answers any request can get before it is routed (see core/api-docs/api-responses.ts). */
const ANY_REQUEST = {
  NotValidHttp: 400,
  RequestTimeout: 408,
  ContentTooLarge: 413,
  TooManyRequests: 429,
  HeadersTooLarge: 431,
};
const BROWSER_ACCEPTS = new Set(['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html']);
/** The other formats `/yourls-api.php` answers in (`format=xml`, `format=simple`). */
const YOURLS_TEXT = new Set(['application/xml', 'text/plain']);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** JSON bodies: plain, and Shlink's problem and health documents (`+json`). */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/;
const SHLINK_PROBLEM = '#/components/schemas/ShlinkProblem';

/**
 * Whether a path is Shlink's API (`/rest/health`, `/rest/v2` or `/rest/v3` and below), whose
 * errors are problem documents.
 */
const isShlinkPath = (path: string) => path === '/rest/health' || /^\/rest\/v[23](?:\/|$)/.test(path);

/**
 * Whether a request reached Shlink's routes' reach: its path is Shlink's and its method a token.
 * A request line such as `PO ST /rest/v3/…` is not HTTP, so no path of it is anybody's.
 */
const reachesShlink = (request: FuzzRequest, path: string) =>
  isShlinkPath(path) && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(request.method);

/** A request's path, as the target carries it (before any normalization). */
const readingsPath = (request: FuzzRequest) => {
  const raw = request.target.toString('latin1');
  return (/^https?:\/\/[^/]*(\/[^?]*)/.exec(raw)?.[1] ?? raw).split('?', 1)[0] ?? '';
};
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** What the document allows for one reading of the request: answers by status, and the Allow of a 405. */
interface Reading {
  name: string;
  responses: Record<string, Json>;
  allow?: string[];
}

/**
 * Judges answers by the OpenAPI document the server itself serves: a status the document lists
 * for that operation (or 405 with the path's methods in `Allow`, or 404 off the document's
 * paths), a body valid against its schema, the envelope on errors, the security headers, no body
 * on HEAD, never a 5xx; and three rules the document states in words: invalid UTF-8 and lone
 * surrogates are never accepted, a wrong or missing key never creates, `text/html;q=0` gets no page.
 */
export function createContractOracle(doc: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (ref: string) => {
    let validate = validators.get(ref);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `${DOC_ID}${ref}` });
      validators.set(ref, validate);
    }
    return validate;
  };
  const shared = (name: string) => doc.components.responses[name];
  const resolve = (response: Json) =>
    typeof response?.$ref === 'string' ? shared(response.$ref.split('/').pop()) : response;
  const anyRequest = Object.fromEntries(
    Object.entries(ANY_REQUEST).map(([name, status]) => [String(status), shared(name)]),
  );

  // The API's templated paths (`/api/v1/links/{code}`), each as a pattern of one segment per parameter.
  const apiTemplates = Object.keys(doc.paths)
    .filter((path) => (path.startsWith('/api/') || path.startsWith('/rest/')) && path.includes('{'))
    .map((path) => ({ path, pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

  /** The document's path for a request path: itself, the API template or the short-URL template it fits. */
  const documentPathOf = (path: string): string | undefined => {
    if (doc.paths[path]) return path;
    if (path === '/api' || path.startsWith('/api/') || path === '/api.php' || isShlinkPath(path)) {
      return apiTemplates.find((template) => template.pattern.test(path))?.path;
    }
    if (/^\/[^/]+$/.test(path)) return '/{code}';
    if (/^\/[^/]+\/$/.test(path)) return '/{code}/';
    return undefined;
  };

  // Shlink's paths answer every error, the ones before any route too, as its problem document:
  // those of any of its operations (they are the same for all).
  const shlinkAny = doc.paths['/rest/v3/short-urls'].get.responses;
  const shlinkAnyRequest = Object.fromEntries(
    Object.values(ANY_REQUEST).map((status) => [String(status), shlinkAny[String(status)]]),
  );

  // YOURLS's path answers them in its failure shape (or Linklet's envelope, for a request that
  // was not HTTP enough to have a path), as its operations declare.
  const yourlsAny = doc.paths['/yourls-api.php'].get.responses;
  const yourlsAnyRequest = Object.fromEntries(
    Object.values(ANY_REQUEST).map((status) => [String(status), yourlsAny[String(status)]]),
  );
  const anyRequestOf = (request: FuzzRequest, path: string) =>
    reachesShlink(request, path) ? shlinkAnyRequest : path === '/yourls-api.php' ? yourlsAnyRequest : anyRequest;

  const readingsOf = (request: FuzzRequest): Reading[] => {
    const path = readingsPath(request);
    // The server routes on the path as the URL parser leaves it (`/a/../b` is `/b`, `/%2e%2e` is
    // `/`) and decoded (`/%68ealth` may be `/health`): any of these readings counts.
    const candidates = new Set([path]);
    let normalized = path;
    try {
      normalized = new URL(path, 'http://h').pathname;
      candidates.add(normalized);
      candidates.add(decodeURIComponent(normalized));
    } catch {}
    const readings: Reading[] = [];
    for (const candidate of candidates) {
      const documented = documentPathOf(candidate);
      if (documented === undefined) {
        if (reachesShlink(request, candidate)) {
          const notFound = { content: { 'application/problem+json': { schema: { $ref: SHLINK_PROBLEM } } } };
          const preflight = request.method === 'OPTIONS' ? { 204: { description: 'Preflight.' } } : {};
          readings.push({
            name: `unknown Shlink path ${candidate}`,
            responses: { ...shlinkAnyRequest, ...preflight, 404: notFound },
          });
          continue;
        }
        const notFound = {
          description: 'Not an API path.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } }, 'text/html': {} },
        };
        // A CORS preflight is answered on any /api path, known or not: the actual request then 404s.
        const preflight =
          request.method === 'OPTIONS' && candidate.startsWith('/api') ? { 204: { description: 'Preflight.' } } : {};
        readings.push({ name: `unknown path ${candidate}`, responses: { ...anyRequest, ...preflight, 404: notFound } });
        continue;
      }
      const item = doc.paths[documented];
      const operations = Object.entries<Json>(item).filter(([key]) => key !== 'parameters');
      const operation = METHODS.has(request.method) ? item[request.method.toLowerCase()] : undefined;
      if (operation !== undefined) {
        readings.push({ name: `${request.method} ${documented}`, responses: operation.responses });
        continue;
      }
      const methodNotAllowed = operations.map(([, op]) => op.responses['405']).find(Boolean);
      readings.push({
        name: `${request.method} ${documented} (not an operation)`,
        responses: { ...anyRequestOf(request, documented), 405: methodNotAllowed },
        allow: operations.map(([method]) => method.toUpperCase()).sort(),
      });
    }
    return readings;
  };

  return (request: FuzzRequest, response: WireResponse | undefined): string[] => {
    if (response === undefined) return ['no answer: the connection closed (or timed out) without a response'];
    const problems: string[] = [];
    const { status } = response;
    const single = (name: string) => response.headers.get(name)?.join(', ');
    // 501 is a refusal the document declares (Shlink's `mercure-not-configured`), not a failure.
    if (status >= 500 && status !== 501) problems.push(`a ${status}`);
    // The web app's page and files (200s of HTML, scripts and styles) carry its own policy.
    const webApp = status === 200 && /^text\/(html|javascript|css)/.test(single('content-type') ?? '');
    // The error page (a 404 or 410 for a browser) carries the policy its stylesheet and icon need.
    const errorPage = status !== 200 && /^text\/html/.test(single('content-type') ?? '');
    // A redirect carries the referrer policy alone (it has no body to protect); every other answer all three.
    const redirect = status >= 300 && status < 400;
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      const expected =
        redirect && name !== 'Referrer-Policy'
          ? undefined
          : webApp && name === 'Content-Security-Policy'
            ? WEB_APP_CSP
            : errorPage && name === 'Content-Security-Policy'
              ? ERROR_PAGE_POLICY
              : value;
      if (single(name.toLowerCase()) !== expected)
        problems.push(`${name} is ${single(name.toLowerCase()) ?? 'missing'}`);
    }
    if (request.method === 'HEAD' && response.afterHead > 0) {
      problems.push(`HEAD answered with ${response.afterHead} body bytes`);
    }

    const readings = readingsOf(request);
    const fitting = readings.filter((reading) => reading.responses[String(status)] !== undefined);
    if (fitting.length === 0) {
      problems.push(`${status} is not declared for ${readings.map((reading) => reading.name).join(' or ')}`);
    }
    const mediaType = (single('content-type') ?? '').split(';', 1)[0]?.trim() ?? '';
    // Of a path read two ways (`/%68ealth`: a code, or `/health` decoded), the reading whose answer
    // has this media type is the one the server took.
    const reading =
      fitting.find((one) => resolve(one.responses[String(status)])?.content?.[mediaType] !== undefined) ?? fitting[0];
    const declared = resolve(reading?.responses[String(status)]);
    if (status === 405) {
      const allow = (single('allow') ?? '').split(/,\s*/).sort();
      // A path read two ways (`/%61pi.php` is a code, or `/api.php` decoded) may have either's methods.
      const expected = fitting.flatMap((candidate) => (candidate.allow ? [candidate.allow.join(', ')] : []));
      if (expected.length > 0 && !expected.includes(allow.join(', '))) {
        problems.push(`Allow is ${allow.join(', ')}; the document has ${expected.join(' or ')}`);
      }
    }
    for (const name of Object.keys(declared?.headers ?? {})) {
      if (single(name.toLowerCase()) === undefined) problems.push(`${status} lacks its declared ${name} header`);
    }

    const body = response.body.toString('utf8');
    if (request.method !== 'HEAD' && declared !== undefined) {
      if (declared.content === undefined) {
        if (body !== '') problems.push(`${status} has a body the document does not declare`);
      } else if (declared.content[mediaType] === undefined) {
        problems.push(
          `${status} sent ${mediaType || 'no Content-Type'}; declared: ${Object.keys(declared.content).join(', ')}`,
        );
      } else if (JSON_MEDIA_TYPE.test(mediaType)) {
        let value: unknown;
        try {
          value = JSON.parse(body);
        } catch {
          problems.push(`${status} body is not JSON: ${body.slice(0, 80)}`);
        }
        const ref = declared.content[mediaType].schema?.$ref;
        if (value !== undefined && typeof ref === 'string') {
          const validate = validatorOf(ref);
          if (!validate(value)) problems.push(`${status} body breaks ${ref}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
    // YOURLS's API answers its refusals in the format asked for, as YOURLS does; Shlink's as
    // problem documents.
    const yourls = readings.some((one) => one.name.includes('/yourls-api.php'));
    const yourlsText = yourls && YOURLS_TEXT.has(mediaType);
    const envelope = reachesShlink(request, readingsPath(request)) ? 'application/problem+json' : 'application/json';
    if (
      status >= 400 &&
      request.method !== 'HEAD' &&
      mediaType !== envelope &&
      mediaType !== 'text/html' &&
      !yourlsText
    ) {
      problems.push(`${status} without the JSON envelope (Content-Type ${mediaType || 'missing'})`);
    }
    if (mediaType === 'text/html' && !BROWSER_ACCEPTS.has(request.accept ?? '')) {
      problems.push(`an HTML page for Accept: ${request.accept ?? '(none)'}`);
    }

    if (status >= 200 && status < 300 && request.method === 'POST' && request.body !== undefined) {
      let text: string | undefined;
      try {
        text = strictUtf8.decode(request.body);
      } catch {
        problems.push(`a body that is not valid UTF-8 was accepted (${status})`);
      }
      // YOURLS's API reads forms, where `\ud800` in the text is six characters, not a surrogate.
      if (text !== undefined && !yourls && hasLoneSurrogate(text))
        problems.push(`a lone surrogate was accepted (${status})`);
      if (request.apiKey === 'wrong' || request.apiKey === 'missing' || request.apiKey === 'doubled') {
        problems.push(`a create without a valid API key (${request.apiKey}) answered ${status}`);
      }
    }
    return problems;
  };
}

function hasLoneSurrogate(text: string): boolean {
  try {
    return containsLone(JSON.parse(text));
  } catch {
    return false;
  }
}

function containsLone(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, item]) => LONE_SURROGATE.test(key) || containsLone(item));
}
