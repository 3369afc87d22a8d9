import fc from 'fast-check';
import { fuzzBody, hangul } from './fuzz-bodies.js';

/** One generated request, and what the fuzzer meant by it (the oracle's expectations hang on it). */
export interface FuzzRequest {
  method: string;
  /** The request target's bytes: raw UTF-8, stray bytes, broken escapes and all. */
  target: Buffer;
  headers: Array<[string, Buffer]>;
  body: Buffer | undefined;
  /** How the body is framed: a Content-Length, chunks, or (without body) neither. */
  framing: 'length' | 'chunked' | 'both' | 'none';
  apiKey: 'valid' | 'bearer' | 'wrong' | 'missing' | 'doubled';
  host: 'ok' | 'missing' | 'doubled' | 'odd';
  /** `Accept` as sent, if any. */
  accept: string | undefined;
}

export interface FuzzWorld {
  /** `Host` of the server (`127.0.0.1:port`). */
  host: string;
  apiKey: string;
  /** Codes of active links and of an expired one, so redirects and 410s are hit too. */
  activeCodes: string[];
  /**
   * Links the management requests (`/api/v1/links/{code}`) change, disable and delete: others
   * than the redirects' own, so those keep answering 302 and 410 whatever the fuzzer deletes.
   */
  managedCodes: string[];
  managedExpiredCodes: string[];
  /** A `changed_since` the server accepts (within its 30 days). */
  recently: string;
  expiredCodes: string[];
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const latin1 = (text: string) => Buffer.from(text, 'latin1');

/** A path segment where a short code goes: codes that exist, and every odd spelling of one. */
function codeSegment(world: FuzzWorld): fc.Arbitrary<Buffer> {
  const encoded = (code: string) => utf8(encodeURIComponent(code));
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...world.activeCodes).map(encoded) },
    { weight: 1, arbitrary: fc.constantFrom(...world.activeCodes).map((code) => encoded(code.toUpperCase())) },
    { weight: 2, arbitrary: fc.constantFrom(...world.expiredCodes).map(encoded) },
    { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/).map(utf8) },
    { weight: 2, arbitrary: hangul.map(encoded) },
    { weight: 1, arbitrary: hangul.map((text) => encoded(text.normalize('NFD'))) },
    { weight: 1, arbitrary: hangul.map(utf8) }, // raw UTF-8 bytes in the target: not valid HTTP
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.stringMatching(/^[a-z0-9]{0,4}$/),
          fc.constantFrom('%', '%E', '%ZZ', '%ED%95', '%C3%28', '%ED%A0%80', '%FF', '%2e%2e', '%00', '%2F', '%EA%B0'),
        )
        .map(([prefix, broken]) => utf8(`${prefix}${broken}`)),
    },
    { weight: 1, arbitrary: fc.integer({ min: 65, max: 3000 }).map((length) => utf8('a'.repeat(length))) },
    { weight: 1, arbitrary: fc.constant(utf8('%EA%B0%80'.repeat(70))) },
    { weight: 1, arbitrary: fc.constantFrom(latin1('\xff'), latin1('a\x80b'), latin1('\x7f')) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('api', 'health', 'HEALTH', 'api.php', '%68ealth', '%61pi.php', 'admin', 'docs')
        .map(utf8),
    },
  );
}

/** The owners and links API: its paths, a link's or key's path, and the listing's query. */
function managementTarget(world: FuzzWorld): fc.Arbitrary<Buffer> {
  const managed = { ...world, activeCodes: world.managedCodes, expiredCodes: world.managedExpiredCodes };
  const path = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(
          '/api/v1/keys',
          '/api/v1/me',
          '/api/v1/links',
          '/api/v1/links/export',
          '/api/v1/links/import',
          '/api/v1/tags',
        )
        .map(utf8),
    },
    { weight: 4, arbitrary: codeSegment(managed).map((segment) => Buffer.concat([utf8('/api/v1/links/'), segment])) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(codeSegment(managed), fc.constantFrom('/stats', '/visits'))
        .map(([segment, tail]) => Buffer.concat([utf8('/api/v1/links/'), segment, utf8(tail)])),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('1', '2', '999', 'abc', '0x1', '%31', '1'.repeat(20))
        .map((id) => utf8(`/api/v1/keys/${id}`)),
    },
  );
  const query = fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '?limit=1',
        '?limit=100',
        '?limit=0',
        '?limit=101',
        '?limit=abc',
        '?status=disabled',
        '?status=expired',
        '?status=bad',
        '?search=M',
        '?search=%ED%95%9C',
        '?cursor=forged',
        '?changed_since=yesterday',
        '?changed_since=2000-01-01T00:00:00Z',
        `?changed_since=${encodeURIComponent(world.recently)}`,
        `?changed_since=${encodeURIComponent(world.recently)}&status=active`,
        '?format=csv',
        '?format=xml',
        '?from=2026-01-01&to=2026-01-31',
        '?from=2026-02-30',
        '?to=31-01-2026',
        '?from=2026-02-01&to=2026-01-01',
        '?from=1900-01-01',
        '?tag=work',
        '?tag=%ED%95%9C%EA%B8%80',
        '?tag=a%20b',
        `?tag=work&changed_since=${encodeURIComponent(world.recently)}`,
      ),
    },
  );
  return fc.tuple(path, query).map(([p, q]) => Buffer.concat([p, utf8(q)]));
}

/**
 * A call of the owners and links API the way a client makes it (the right method on each path),
 * so its 200s, 404s, 410s and 400s are reached rather than only its 405s.
 */
function managementCall(world: FuzzWorld): fc.Arbitrary<{ method: string; target: Buffer }> {
  const managed = { ...world, activeCodes: world.managedCodes, expiredCodes: world.managedExpiredCodes };
  // The managed links themselves more often than codeSegment's odd spellings, expired ones too (410s).
  const segment = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...world.managedCodes).map((code) => utf8(encodeURIComponent(code))) },
    { weight: 2, arbitrary: fc.constantFrom(...world.managedExpiredCodes).map(utf8) },
    { weight: 2, arbitrary: codeSegment(managed) },
  );
  const link = segment.map((code) => Buffer.concat([utf8('/api/v1/links/'), code]));
  const onPath = (methods: string[], target: fc.Arbitrary<Buffer>) =>
    fc.tuple(fc.constantFrom(...methods), target).map(([method, path]) => ({ method, target: path }));
  return fc.oneof(
    { weight: 5, arbitrary: onPath(['GET', 'HEAD', 'PATCH', 'PATCH', 'PATCH'], link) },
    // Where a link's clicks come from: its stats and visits, with good and bad queries.
    {
      weight: 2,
      arbitrary: onPath(
        ['GET', 'HEAD'],
        fc
          .tuple(
            link,
            fc.constantFrom('/stats', '/visits'),
            fc.constantFrom(
              '',
              '?from=2026-01-01&to=2026-01-31',
              '?from=2026-02-30',
              '?to=2026-01-01&from=2026-02-01',
              '?limit=1',
              '?limit=0',
              '?cursor=forged',
              '?format=csv',
              '?format=xml',
            ),
          )
          .map(([path, tail, query]) => Buffer.concat([path, utf8(tail + query)])),
      ),
    },
    // Deletes spare the expired links, which the PATCHes need for their 410s.
    {
      weight: 1,
      arbitrary: onPath(
        ['DELETE'],
        fc
          .oneof(fc.constantFrom(...world.managedCodes).map(encodeURIComponent), fc.stringMatching(/^[a-z0-9]{1,8}$/))
          .map((code) => utf8(`/api/v1/links/${code}`)),
      ),
    },
    {
      weight: 3,
      arbitrary: onPath(
        ['GET', 'HEAD'],
        managementTarget(world).filter((target) => target.toString('latin1').startsWith('/api/v1/links?')),
      ),
    },
    { weight: 1, arbitrary: onPath(['GET', 'POST'], fc.constant(utf8('/api/v1/keys'))) },
    { weight: 1, arbitrary: onPath(['GET'], fc.constant(utf8('/api/v1/me'))) },
    { weight: 1, arbitrary: onPath(['DELETE'], fc.constantFrom('/api/v1/keys/1', '/api/v1/keys/x').map(utf8)) },
  );
}

/**
 * A call of YOURLS's API (`/yourls-api.php`) as its clients make it: each action and format in
 * the query of a GET or POST, or as a form in a POST's body, with good and bad fields.
 */
function yourlsCall(): fc.Arbitrary<{ method: string; target: Buffer; form: Buffer | undefined }> {
  const query = fc.constantFrom(
    '',
    '?action=version',
    '?action=version&format=json',
    '?action=version&format=simple',
    '?action=version&format=jsonp&callback=alert',
    '?action=shorturl&url=https%3A%2F%2Fexample.com%2Fyourls&format=json',
    '?action=shorturl&url=https%3A%2F%2Fexample.com%2F%3Fa%3D%3Cb%3E&title=%26%3C%3E',
    '?action=shorturl&url=nope&format=json',
    '?action=shorturl&url=https%3A%2F%2Fexample.com%2F&keyword=promo&format=json',
    '?action=shorturl&url=https%3A%2F%2Fexample.com%2F&keyword=a.b',
    '?action=expand&shorturl=promo&format=json',
    '?action=expand&shorturl=https%3A%2F%2Fother.example%2Fpromo',
    '?action=url-stats&shorturl=%ED%95%9C%EA%B8%80',
    '?action=stats&limit=3&filter=top&format=json',
    '?action=stats&filter=rand&limit=2',
    '?action=db-stats&format=json',
    '?action=nope&format=json',
    '?action=version&signature=wrong&format=json',
    '?action=version&timestamp=1&signature=x',
  );
  const form = fc.option(
    fc
      .constantFrom(
        'action=version&format=json',
        'action=shorturl&url=https%3A%2F%2Fexample.com%2Fform&format=simple',
        'action=stats&limit=2',
        'action=expand&shorturl=promo&format=json',
        'format=jsonp',
        'action=shorturl&url=%E0%A4&format=json',
      )
      .map(utf8),
    { freq: 2 },
  );
  const method = fc.constantFrom('GET', 'GET', 'GET', 'POST', 'POST', 'POST', 'HEAD', 'PUT');
  return fc.tuple(method, query, form).map(([verb, q, body]) => ({
    method: verb,
    target: utf8(`/yourls-api.php${q}`),
    form: verb === 'POST' && body !== null ? body : undefined,
  }));
}

/** Shlink's API under both prefixes: its paths, a short code's, and queries of its lists. */
function shlinkTarget(world: FuzzWorld): fc.Arbitrary<Buffer> {
  const managed = { ...world, activeCodes: world.managedCodes, expiredCodes: world.managedExpiredCodes };
  const prefix = fc.constantFrom('/rest/v3', '/rest/v2').map(utf8);
  const path = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          prefix,
          fc.constantFrom(
            '/health',
            '/short-urls',
            '/visits',
            '/visits/orphan',
            '/visits/non-orphan',
            '/tags',
            '/tags/stats',
            '/tags/work/visits',
            '/domains',
            '/domains/redirects',
            '/domains/example.com/visits',
            '/mercure-info',
            '/nothing',
            '/short-urls/',
          ),
        )
        .map(([head, tail]) => Buffer.concat([head, utf8(tail)])),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(prefix, codeSegment(managed), fc.constantFrom('', '/visits', '/redirect-rules'))
        .map(([head, segment, tail]) => Buffer.concat([head, utf8('/short-urls/'), segment, utf8(tail)])),
    },
    { weight: 1, arbitrary: fc.constantFrom('/rest/health', '/rest', '/rest/', '/rest/v4/health').map(utf8) },
  );
  const query = fc.constantFrom(
    '',
    '',
    '?page=2&itemsPerPage=1',
    '?itemsPerPage=-1',
    '?itemsPerPage=0',
    '?page=abc',
    '?orderBy=visits-DESC',
    '?orderBy=title-UP',
    '?searchTerm=m',
    '?tags%5B%5D=work',
    '?tags%5B%5D=a&tags%5B%5D=b',
    '?excludePastValidUntil=true',
    '?startDate=2026-01-01',
    '?excludeBots=true&startDate=2026-01-01T00:00:00%2B00:00',
    '?domain=DEFAULT',
  );
  return fc.tuple(path, query).map(([p, q]) => Buffer.concat([p, utf8(q)]));
}

/** Where the request goes: every documented path, short URLs, and paths the API does not have. */
function target(world: FuzzWorld): fc.Arbitrary<Buffer> {
  const query = fc.oneof(
    { weight: 6, arbitrary: fc.constant(utf8('')) },
    { weight: 1, arbitrary: fc.constantFrom('?a=1', '?%zz', '?utm_source=x&b', '?').map(utf8) },
    { weight: 1, arbitrary: hangul.map((text) => utf8(`?q=${text}`)) },
  );
  const path = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.constantFrom('/', '/api.php', '/api/v1/shorten', '/api/v1/openapi.json', '/health').map(utf8),
    },
    {
      weight: 6,
      arbitrary: fc
        .tuple(codeSegment(world), fc.boolean())
        .map(([segment, slash]) => Buffer.concat([utf8('/'), segment, utf8(slash ? '/' : '')])),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '/api',
          '/api/',
          '/api/v2/shorten',
          '/api/v1/',
          '/a/b',
          '//x',
          '/api.php/x',
          '/health/x',
          '/../etc',
        )
        .map(utf8),
    },
    { weight: 1, arbitrary: fc.constantFrom('*', 'http://127.0.0.1/health', 'api.php').map(utf8) },
    { weight: 4, arbitrary: managementTarget(world) },
    { weight: 3, arbitrary: shlinkTarget(world) },
  );
  return fc.tuple(path, query).map(([p, q]) => Buffer.concat([p, q]));
}

// No CONNECT: Node's HTTP server closes a CONNECT request's connection without any answer when
// nothing listens for its 'connect' event, which Linklet does not (yet) do.
const METHODS = fc.oneof(
  { weight: 8, arbitrary: fc.constant('GET') },
  { weight: 3, arbitrary: fc.constant('HEAD') },
  { weight: 8, arbitrary: fc.constant('POST') },
  { weight: 1, arbitrary: fc.constant('OPTIONS') },
  { weight: 2, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('get', 'FOO', 'PROPFIND', 'TRACE', 'M-SEARCH', 'G\u00c9T', 'PO ST'),
  },
);

const CONTENT_TYPES = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
  ';;;',
  'application/json; charset=latin1',
);
const ACCEPTS = fc.constantFrom(
  'application/json',
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'text/html;q=0, application/json',
  'application/json, text/html;q=0.5',
  '*/*',
  'text/html',
  'image/png',
);

/** Every generated request, built from the world it is sent into. */
export function fuzzRequest(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: METHODS,
      target: target(world),
      body: fc.option(fuzzBody, { freq: 3 }),
      framing: fc.constantFrom('length', 'length', 'length', 'length', 'length', 'chunked', 'chunked', 'both'),
      apiKey: fc.constantFrom('valid', 'valid', 'valid', 'bearer', 'wrong', 'missing', 'doubled'),
      host: fc.constantFrom('ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'missing', 'doubled', 'odd'),
      contentType: fc.option(fc.oneof(CONTENT_TYPES, fc.tuple(CONTENT_TYPES, CONTENT_TYPES)), { freq: 5 }),
      accept: fc.option(ACCEPTS, { freq: 2 }),
      requestId: fc.option(fc.constantFrom('fuzz-1', 'not valid!', 'x'.repeat(80)), { freq: 4 }),
      huge: fc.constantFrom(false, false, false, false, false, false, false, false, false, false, false, false, true),
      expectContinue: fc.constantFrom(false, false, false, false, false, false, false, false, true),
      // Half the requests are creates with the right key and Host, so the body rules get exercised
      // rather than drowned in 401s, 404s and 405s.
      create: fc.option(fc.constantFrom('/api.php', '/api/v1/shorten'), { freq: 2 }),
      // Of the rest, about one in five calls the owners and links API as a client would.
      manage: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: managementCall(world) }),
      // And about one in six of what is left calls YOURLS's API.
      yourls: fc.option(yourlsCall(), { freq: 5 }),
    })
    .map((drawn) => {
      const create = drawn.create === null ? undefined : drawn.create;
      const manage = create ? null : drawn.manage;
      const yourls = create || manage ? null : drawn.yourls;
      const method = create ? 'POST' : (manage?.method ?? yourls?.method ?? drawn.method);
      const path = create ? utf8(create) : (manage?.target ?? yourls?.target ?? drawn.target);
      // A PATCH of a link mostly gets a body that could be valid, so its 200s, 404s and 410s are hit.
      const patchDefault = method === 'PATCH' && path.toString('latin1').startsWith('/api/v1/links/');
      // A management PATCH keeps a drawn body half the time (odd lengths) and otherwise a valid one.
      const drawnBody = patchDefault && manage && (drawn.body?.length ?? 0) % 2 === 0 ? null : drawn.body;
      const given =
        drawnBody === null && create
          ? utf8('{"original_url":"https://example.com/"}')
          : drawnBody === null && patchDefault
            ? utf8(
                [
                  '{"disabled":true}',
                  '{"original_url":"https://example.com/new","disabled":false}',
                  '{"expire_duration":"24h"}',
                  '{"title":"Renamed","tags":["work","한글"],"expire_duration":"1month"}',
                  '{"redirect_rules":[{"target_url":"https://example.com/a","conditions":[{"type":"device","value":"android"}]}],"max_visits":100000,"forward_query":true}',
                ][path.length % 5] as string,
              )
            : drawnBody === null && manage?.method === 'POST'
              ? utf8('{"name":"fuzz owner"}')
              : (yourls?.form ?? drawnBody);
      const apiKey = create && drawn.apiKey !== 'bearer' ? 'valid' : drawn.apiKey;
      // A management call keeps its key as drawn (valid, bearer, wrong, missing, doubled) but is
      // otherwise well-formed, so the route itself answers rather than the HTTP checks.
      const host = create || manage || yourls ? 'ok' : drawn.host;
      const { framing, accept, requestId, huge, expectContinue } = drawn;
      const contentType = yourls?.form
        ? 'application/x-www-form-urlencoded'
        : manage && Array.isArray(drawn.contentType)
          ? drawn.contentType[0]
          : drawn.contentType;
      // Mostly bodies on POSTs; sometimes on other methods too.
      const sendBody =
        given !== null && (method === 'POST' || patchDefault || given.length % 4 === 0) ? given : undefined;
      const headers: Array<[string, Buffer]> = [];
      const header = (name: string, value: string | Buffer) =>
        headers.push([name, typeof value === 'string' ? latin1(value) : value]);
      if (host === 'ok' || host === 'doubled') header('Host', world.host);
      if (host === 'doubled') header('Host', 'elsewhere.example');
      if (host === 'odd') header('Host', 'exa mple\u00ff');
      header('Connection', 'close');
      if (apiKey === 'valid' || apiKey === 'doubled') header('X-API-Key', world.apiKey);
      if (apiKey === 'doubled') header('X-API-Key', world.apiKey);
      if (apiKey === 'bearer') header('Authorization', `Bearer ${world.apiKey}`);
      if (apiKey === 'wrong') header('X-API-Key', `${world.apiKey}x`);
      if (Array.isArray(contentType)) for (const type of contentType) header('Content-Type', type);
      else if (contentType !== null) header('Content-Type', contentType);
      if (accept !== null) header('Accept', accept);
      if (requestId !== null) header('X-Request-Id', requestId);
      if (huge) header('X-Padding', 'p'.repeat(17_000));
      if (expectContinue && sendBody !== undefined) header('Expect', '100-continue');
      return {
        method,
        target: path,
        headers,
        body: sendBody,
        framing: sendBody === undefined ? 'none' : framing,
        apiKey,
        host,
        accept: accept ?? undefined,
      } satisfies FuzzRequest;
    });
}

/** The request's bytes on the wire. */
export function encodeRequest(request: FuzzRequest): Buffer {
  const lines: Buffer[] = [Buffer.concat([latin1(`${request.method} `), request.target, latin1(' HTTP/1.1')])];
  for (const [name, value] of request.headers) lines.push(Buffer.concat([latin1(`${name}: `), value]));
  const { body, framing } = request;
  if (body !== undefined && (framing === 'length' || framing === 'both'))
    lines.push(latin1(`Content-Length: ${body.length}`));
  if (body !== undefined && (framing === 'chunked' || framing === 'both'))
    lines.push(latin1('Transfer-Encoding: chunked'));
  const head = Buffer.concat([...lines.flatMap((line) => [line, latin1('\r\n')]), latin1('\r\n')]);
  if (body === undefined) return head;
  if (framing === 'length') return Buffer.concat([head, body]);
  const chunks: Buffer[] = [head];
  for (let at = 0; at < body.length; at += 4096) {
    const part = body.subarray(at, at + 4096);
    chunks.push(latin1(`${part.length.toString(16)}\r\n`), part, latin1('\r\n'));
  }
  chunks.push(latin1('0\r\n\r\n'));
  return Buffer.concat(chunks);
}

/** A short, printable account of a request for a failure report. */
export function describeRequest(request: FuzzRequest): string {
  const target = JSON.stringify(request.target.toString('latin1')).slice(1, -1);
  const body =
    request.body === undefined
      ? ''
      : ` body(${request.framing}, ${request.body.length} B)=${JSON.stringify(request.body.subarray(0, 80).toString('latin1'))}`;
  const headers = request.headers
    .filter(([name]) => name !== 'Connection')
    .map(([name, value]) => `${name}: ${value.length > 60 ? `<${value.length} B>` : value.toString('latin1')}`)
    .join(' | ');
  const short = (text: string) => (text.length > 160 ? `${text.slice(0, 150)}…(${text.length})` : text);
  return `${request.method} ${short(target)} [${headers}]${body}`;
}
