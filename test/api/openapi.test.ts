import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../core/management/owners/api-keys.js';
import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { DAY, json, makeHandler, type TestApp } from './make-handler.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON.
type Json = any;

const URL_A = 'https://example.com/a';
const DOC_ID = 'https://sho.rt/api/v1/openapi.json';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let doc: Json;
let ajv: Ajv2020;
/** Every status the handler produced here, by operation (`post /api.php`). */
const produced = new Map<string, Set<number>>();

beforeAll(async () => {
  const response = await makeHandler().fetch('/api/v1/openapi.json');
  expect(response.status).toBe(200);
  doc = await json(response);

  ajv = new Ajv2020({ strict: false, allErrors: true });
  // The document declares `format: uri` for original_url: an absolute URL as the WHATWG parser reads it.
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  // The components under an absolute id, so `#/components/schemas/…` refs resolve against it.
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
});

/** `#/…` refs made absolute so a schema taken out of the document still finds its components. */
function absolute(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(absolute);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${DOC_ID}${value}` : absolute(value),
    ]),
  );
}

/**
 * The response the document declares for `path` (a document path such as `/{code}`), `method`
 * and `status`. A 405 answers a method the path has no operation for, so it is looked up among
 * the path's operations.
 */
function declaredResponse(path: string, method: string, status: number): Json {
  const item = doc.paths[path];
  expect(item, `document has path ${path}`).toBeDefined();
  const operations = status === 405 && !item[method] ? Object.values(item) : [item[method]];
  const declared = operations.map((operation: Json) => operation?.responses?.[String(status)]).find(Boolean);
  expect(declared, `document declares ${status} for ${method.toUpperCase()} ${path}`).toBeDefined();
  return resolveResponse(declared);
}

/** A response object, its `$ref` to a shared one (`#/components/responses/…`) followed. */
function resolveResponse(declared: Json): Json {
  if (typeof declared?.$ref !== 'string') return declared;
  const shared = doc.components.responses[declared.$ref.replace('#/components/responses/', '')];
  expect(shared, `${declared.$ref} exists`).toBeDefined();
  return shared;
}

/** Checks a real response against what the document declares for it and records its status. */
async function expectDeclared(response: Response, path: string, method: string, expectedStatus: number) {
  expect(response.status).toBe(expectedStatus);
  const key = `${method} ${path}`;
  produced.set(key, (produced.get(key) ?? new Set()).add(response.status));

  const declared = declaredResponse(path, method, response.status);
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const text = await response.text();
  if (!declared.content) {
    expect(text, 'a response declared without content has no body').toBe('');
    return;
  }
  const declaredMedia = declared.content[mediaType];
  expect(declaredMedia, `${key} ${response.status} declares ${mediaType}`).toBeDefined();
  const body = mediaType === 'application/json' ? JSON.parse(text) : text;
  const validate = ajv.compile(absolute(declaredMedia.schema));
  const valid = validate(body);
  expect(validate.errors ?? [], JSON.stringify(body)).toEqual([]);
  expect(valid).toBe(true);
  for (const header of Object.keys(declared.headers ?? {})) {
    expect(response.headers.get(header), `${key} ${response.status} sends ${header}`).not.toBeNull();
  }
}

function failingStore(): LinkStore {
  return { ...createMemoryLinkStore(), create: () => Promise.reject(new Error('boom')) };
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('names the configured base URL as its server and the configured limits', async () => {
    const custom = await json(await makeHandler({ maxUrlLength: 300 }).fetch('/api/v1/openapi.json'));
    expect(custom.servers.map((server: Json) => server.url)).toEqual(['https://sho.rt']);
    expect(custom.components.schemas.ShortenRequest.properties.original_url.maxLength).toBe(300);
  });

  it('has schemas strict enough to catch a wrong response (the checks below are not vacuous)', () => {
    const schema = (name: string) => ajv.compile(absolute({ $ref: `#/components/schemas/${name}` }));
    const data = {
      short_url: 'https://sho.rt/abc',
      original_url: URL_A,
      code: 'abc',
      expiration_date: '2026-02-07 12:00:00',
    };
    expect(schema('LegacySuccess')({ status: 'success', message: 'ok', data })).toBe(true);
    expect(
      schema('LegacySuccess')({
        status: 'success',
        message: 'ok',
        data: { ...data, short_url: 'https://sho.rt/abc/' },
      }),
    ).toBe(false);
    expect(
      schema('LegacySuccess')({
        status: 'success',
        message: 'ok',
        data: { ...data, expiration_date: '2026-02-07T12:00:00.000Z' },
      }),
    ).toBe(false);
    expect(
      schema('V1Success')({ status: 'success', message: 'ok', data: { ...data, short_url: 'https://sho.rt/abc/' } }),
    ).toBe(false);
    expect(schema('Error')({ status: 'error', message: 'bad', data })).toBe(false);
    expect(schema('Error')({ status: 'success', message: 'bad' })).toBe(false);
  });

  it('declares every route, HEAD with each GET and OPTIONS on the API paths', () => {
    const methodsOf = (path: string) =>
      Object.keys(doc.paths[path])
        .filter((key) => key !== 'parameters')
        .sort();
    // Shlink's paths are checked in test/api/shlink.test.ts, against its own endpoint list.
    const linkletPaths = Object.keys(doc.paths).filter((path) => !path.startsWith('/rest/'));
    expect(linkletPaths.sort()).toEqual([
      '/',
      '/api.php',
      '/api/v1/keys',
      '/api/v1/keys/{id}',
      '/api/v1/links',
      '/api/v1/links/claim',
      '/api/v1/links/export',
      '/api/v1/links/import',
      '/api/v1/links/{code}',
      '/api/v1/links/{code}/stats',
      '/api/v1/links/{code}/visits',
      '/api/v1/me',
      '/api/v1/openapi.json',
      '/api/v1/shorten',
      '/api/v1/tags',
      '/api/v1/tags/{tag}',
      '/assets/{file}',
      '/health',
      '/yourls-api.php',
      '/{code}',
      '/{code}/',
    ]);
    for (const path of ['/api.php', '/api/v1/shorten', '/yourls-api.php']) {
      expect(methodsOf(path)).toEqual(['get', 'head', 'options', 'post']);
    }
    expect(methodsOf('/api/v1/links/export')).toEqual(['get', 'head', 'options']);
    expect(methodsOf('/api/v1/links/import')).toEqual(['options', 'post']);
    expect(methodsOf('/api/v1/openapi.json')).toEqual(['get', 'head', 'options']);
    expect(methodsOf('/api/v1/keys')).toEqual(['get', 'head', 'options', 'post']);
    expect(methodsOf('/api/v1/keys/{id}')).toEqual(['delete', 'options']);
    expect(methodsOf('/api/v1/me')).toEqual(['get', 'head', 'options']);
    expect(methodsOf('/api/v1/links')).toEqual(['get', 'head', 'options']);
    expect(methodsOf('/api/v1/tags')).toEqual(['get', 'head', 'options']);
    expect(methodsOf('/api/v1/tags/{tag}')).toEqual(['delete', 'options', 'patch']);
    expect(methodsOf('/api/v1/links/{code}/visits')).toEqual(['delete', 'get', 'head', 'options']);
    expect(methodsOf('/api/v1/links/{code}')).toEqual(['delete', 'get', 'head', 'options', 'patch']);
    for (const path of ['/', '/assets/{file}', '/health', '/{code}', '/{code}/']) {
      expect(methodsOf(path)).toEqual(['get', 'head']);
    }
  });

  it('declares the answers any request can get, and the API key schemes on the creates', () => {
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        if (method === 'parameters') continue;
        const statuses = Object.keys(operation.responses);
        for (const status of ['400', '405', '408', '431', '500']) {
          expect(statuses, `${method} ${path} declares ${status}`).toContain(status);
        }
        const exempt = path === '/health' || method === 'options';
        expect(statuses.includes('429'), `${method} ${path} and 429`).toBe(!exempt);
        const managed =
          /^\/api\/v1\/(links|keys|me|tags)/.test(path) || (path.startsWith('/rest/v') && !path.endsWith('/health'));
        // YOURLS's API refuses a missing or wrong key with its own 403, never a 401.
        const yourls = path === '/yourls-api.php';
        const keyed = !yourls && (method === 'post' || (managed && method !== 'options'));
        // A short URL answers 401 too: a link with a password, without the right one.
        const protectable = path.startsWith('/{code}') && method !== 'options';
        expect(statuses.includes('401'), `${method} ${path} and 401`).toBe(keyed || protectable);
        expect(operation.description, `${method} ${path} has a description`).toBeTruthy();
        expect(operation.tags, `${method} ${path} has a tag`).toHaveLength(1);
      }
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'ApiKeyHeader',
      'BearerKey',
      'YourlsSignature',
    ]);
    for (const method of ['get', 'post']) {
      expect(doc.paths['/yourls-api.php'][method].security).toEqual([
        {},
        { YourlsSignature: [] },
        { ApiKeyHeader: [] },
        { BearerKey: [] },
      ]);
      expect(doc.paths['/yourls-api.php'][method].responses['403']).toBeDefined();
      expect(doc.paths['/yourls-api.php'][method].tags).toEqual(['compatibility']);
    }
    expect(doc.paths['/api/v1/shorten'].post.security).toEqual([{}, { ApiKeyHeader: [] }, { BearerKey: [] }]);
    expect(doc.paths['/health'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/links/{code}'].patch.security).toEqual([{ ApiKeyHeader: [] }, { BearerKey: [] }]);
    expect(doc.paths['/api/v1/keys'].post.responses['403']).toBeDefined();
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });
});

describe('the API description and the OpenAPI document come from one source', () => {
  const operationsOf = (document: Json) =>
    Object.entries<Json>(document.paths).flatMap(([path, item]) =>
      Object.entries<Json>(item)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    );

  it.each(['/api.php', '/api/v1/shorten'])(
    '%s lists every operation of the document (but HEAD and OPTIONS) with its statuses',
    async (path) => {
      const description = await json(await makeHandler().fetch(path));
      const listed = description.endpoints.map((endpoint: Json) => `${endpoint.method} ${endpoint.path}`);
      const documented = operationsOf(doc);
      expect(listed.sort()).toEqual(documented.map(({ method, path }) => `${method} ${path}`).sort());
      for (const { method, path: documentedPath, operation } of documented) {
        const entry = description.endpoints.find(
          (endpoint: Json) => endpoint.method === method && endpoint.path === documentedPath,
        );
        expect(entry.statuses, `${method} ${documentedPath}`).toEqual(Object.keys(operation.responses).map(Number));
        expect(entry.summary).toBe(operation.summary);
      }
    },
  );

  it('the description names what every error status the document declares means', async () => {
    const description = await json(await makeHandler().fetch('/api/v1/shorten'));
    const declared = new Set<string>();
    for (const item of Object.values<Json>(doc.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        if (method === 'parameters') continue;
        for (const status of Object.keys(operation.responses)) if (Number(status) >= 400) declared.add(status);
      }
    }
    expect(Object.keys(description.errors).sort()).toEqual([...declared].sort());
    expect(declared).toContain('429');
    expect(declared).toContain('503');
  });
});

describe('real responses match the document', () => {
  let app: TestApp;
  const post = (path: string, body: unknown, headers?: Record<string, string>) => app.post(path, body, headers);

  beforeAll(() => {
    app = makeHandler({ codes: ['abc2345', 'def6789'] });
  });

  it('legacy 200 and v1 201', async () => {
    await expectDeclared(await post('/api.php', { original_url: URL_A }), '/api.php', 'post', 200);
    const v1 = await post('/api/v1/shorten', { original_url: URL_A, custom_code: '한글' });
    expect(v1.headers.get('location')).toBe('https://sho.rt/%ED%95%9C%EA%B8%80/');
    await expectDeclared(v1, '/api/v1/shorten', 'post', 201);
  });

  it.each(['/api.php', '/api/v1/shorten'])('400s of %s', async (path) => {
    for (const body of [{}, { original_url: 'javascript:alert(1)' }, { original_url: URL_A, custom_code: '\u212a' }]) {
      await expectDeclared(await post(path, body), path, 'post', 400);
    }
    await expectDeclared(await post(path, '[1]'), path, 'post', 400);
    await expectDeclared(await post(path, 'not json'), path, 'post', 400);
  });

  it.each(['/api.php', '/api/v1/shorten'])('409 of %s', async (path) => {
    await post('/api.php', { original_url: URL_A, custom_code: `taken-${path.length}` });
    await expectDeclared(
      await post(path, { original_url: URL_A, custom_code: `TAKEN-${path.length}` }),
      path,
      'post',
      409,
    );
  });

  it.each(['/api.php', '/api/v1/shorten'])('405 and 413 of %s', async (path) => {
    await expectDeclared(await app.fetch(path, { method: 'PUT' }), path, 'put', 405);
    const big = JSON.stringify({ original_url: URL_A, pad: 'x'.repeat(20_000) });
    await expectDeclared(await post(path, big), path, 'post', 413);
  });

  it.each(['/api.php', '/api/v1/shorten'])('401 and 500 of %s', async (path) => {
    const keyed = makeHandler({ apiKey: 'k-1' });
    await expectDeclared(await keyed.post(path, { original_url: URL_A }), path, 'post', 401);
    const broken = makeHandler({ store: failingStore() });
    await expectDeclared(await broken.post(path, { original_url: URL_A }), path, 'post', 500);
  });

  it.each(['/api.php', '/api/v1/shorten'])('GET description of %s', async (path) => {
    await expectDeclared(await app.fetch(path), path, 'get', 200);
  });

  it.each(['/{code}', '/{code}/'])('302, 404, 410 and 405 of %s', async (template) => {
    const local = makeHandler();
    await local.post('/api.php', { original_url: URL_A, custom_code: 'soon', expire_duration: '24h' });
    const at = (code: string) => template.replace('{code}', code);

    await expectDeclared(await local.fetch(at('soon')), template, 'get', 302);
    await expectDeclared(await local.fetch(at('nothing')), template, 'get', 404);
    await expectDeclared(
      await local.fetch(at('nothing'), { headers: { Accept: BROWSER_ACCEPT } }),
      template,
      'get',
      404,
    );
    await expectDeclared(await local.fetch(at('soon'), { method: 'DELETE' }), template, 'delete', 405);
    local.clock.advance(DAY);
    await expectDeclared(await local.fetch(at('soon')), template, 'get', 410);
    await expectDeclared(await local.fetch(at('soon'), { headers: { Accept: BROWSER_ACCEPT } }), template, 'get', 410);
  });

  it('/health 200 and 503, the OpenAPI document itself, HEAD without a body and the CORS preflight', async () => {
    await expectDeclared(await app.fetch('/health'), '/health', 'get', 200);
    const down = makeHandler({ store: { ...createMemoryLinkStore(), ping: () => Promise.reject(new Error('down')) } });
    await expectDeclared(await down.fetch('/health'), '/health', 'get', 503);
    await expectDeclared(await app.fetch('/api/v1/openapi.json'), '/api/v1/openapi.json', 'get', 200);
    await expectDeclared(await app.fetch('/'), '/', 'get', 200);
    await expectDeclared(await app.fetch('/api/v1/shorten', { method: 'HEAD' }), '/api/v1/shorten', 'head', 200);
    await expectDeclared(await app.fetch('/nothing', { method: 'HEAD' }), '/{code}', 'head', 404);
    const preflight = await app.fetch('/api/v1/shorten', {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
    });
    await expectDeclared(preflight, '/api/v1/shorten', 'options', 204);
  });

  it('every status produced above is declared for its operation', () => {
    expect([...produced.keys()].sort()).toEqual([
      'delete /{code}',
      'delete /{code}/',
      'get /',
      'get /api.php',
      'get /api/v1/openapi.json',
      'get /api/v1/shorten',
      'get /health',
      'get /{code}',
      'get /{code}/',
      'head /api/v1/shorten',
      'head /{code}',
      'options /api/v1/shorten',
      'post /api.php',
      'post /api/v1/shorten',
      'put /api.php',
      'put /api/v1/shorten',
    ]);
    for (const [key, statuses] of produced) {
      const [method = '', path = ''] = key.split(' ');
      for (const status of statuses) expect(declaredResponse(path, method, status)).toBeDefined();
    }
    expect([...(produced.get('post /api.php') ?? [])].sort()).toEqual([200, 400, 401, 409, 413, 500]);
    expect([...(produced.get('post /api/v1/shorten') ?? [])].sort()).toEqual([201, 400, 401, 409, 413, 500]);
    expect([...(produced.get('get /{code}') ?? [])].sort()).toEqual([302, 404, 410]);
  });
});

describe('request bodies the handler accepts satisfy ShortenRequest', () => {
  const validateRequest = () => ajv.compile({ $ref: `${DOC_ID}#/components/schemas/ShortenRequest` });

  it.each([
    ['only original_url', { original_url: URL_A }],
    ['every field', { original_url: URL_A, custom_code: 'Promo_1-x', expire_duration: '24h' }],
    [
      'a Hangul code',
      { original_url: 'https://bücher.example/straße', custom_code: '한글', expire_duration: '1month' },
    ],
    ['compatibility jamo', { original_url: URL_A, custom_code: 'ㅋㅋ', expire_duration: '48h' }],
    ['null optional fields', { original_url: URL_A, custom_code: null, expire_duration: null }],
    ['"" optional fields', { original_url: URL_A, custom_code: '', expire_duration: '' }],
    ['unknown fields', { original_url: URL_A, expire_duration: '1week', note: 'ignored', labels: [1] }],
    ['a 64-character code', { original_url: URL_A, custom_code: 'a'.repeat(64) }],
    [
      '64 syllables sent as NFD jamo (64 characters after NFC)',
      { original_url: URL_A, custom_code: '한'.repeat(64).normalize('NFD') },
    ],
  ])('%s', async (_, body) => {
    const accepted = await makeHandler().post('/api/v1/shorten', body);
    expect(accepted.status).toBe(201);
    const validate = validateRequest();
    validate(body);
    expect(validate.errors ?? []).toEqual([]);
  });

  it('a v1 create with "" for password and tags (none of either) satisfies V1ShortenRequest', async () => {
    const body = { original_url: URL_A, password: '', tags: '', title: '' };
    expect((await makeHandler().post('/api/v1/shorten', body)).status).toBe(201);
    const validate = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/V1ShortenRequest` });
    validate(body);
    expect(validate.errors ?? []).toEqual([]);
    expect(validate({ original_url: URL_A, tags: 'work' })).toBe(false);
    expect(validate({ original_url: URL_A, password: 'abc' })).toBe(false);
  });

  it('and bodies it refuses for a field rule break the schema too', () => {
    const validate = validateRequest();
    for (const body of [
      {},
      { original_url: 1 },
      { original_url: URL_A, expire_duration: '2weeks' },
      { original_url: URL_A, custom_code: 5 },
    ]) {
      expect(validate(body), JSON.stringify(body)).toBe(false);
    }
  });
});

describe('export and import answer as the document says', () => {
  const ADMIN = 'admin-key-for-openapi';
  const asAdmin = { 'X-API-Key': ADMIN };

  it('export 200 (JSON and CSV) and 400, import 200, 400 and 413', async () => {
    const app = makeHandler({ apiKey: ADMIN });
    await app.post('/api/v1/shorten', { original_url: URL_A, custom_code: 'exported' }, asAdmin);
    const exported = (format: string) => app.fetch(`/api/v1/links/export?format=${format}`, { headers: asAdmin });
    await expectDeclared(await exported('json'), '/api/v1/links/export', 'get', 200);
    await expectDeclared(await exported('csv'), '/api/v1/links/export', 'get', 200);
    await expectDeclared(await exported('xml'), '/api/v1/links/export', 'get', 400);
    await expectDeclared(await app.fetch('/api/v1/links/export'), '/api/v1/links/export', 'get', 401);
    const imported = (body: string, type = 'text/csv') =>
      app.fetch('/api/v1/links/import', { method: 'POST', headers: { ...asAdmin, 'Content-Type': type }, body });
    const csv = `code,original_url\nexported,${URL_A}\nnew,${URL_A}\nbad code,${URL_A}\n`;
    await expectDeclared(await imported(csv), '/api/v1/links/import', 'post', 200);
    await expectDeclared(
      await imported('[{"slug":"s1","url":"https://example.com/"}]', 'application/json'),
      '/api/v1/links/import',
      'post',
      200,
    );
    await expectDeclared(await imported('hello'), '/api/v1/links/import', 'post', 400);
    await expectDeclared(await imported('x'.repeat(10 * 1024 * 1024 + 1)), '/api/v1/links/import', 'post', 413);
  });

  it('claim 200 (claimed and refused), 400, 401 and 403', async () => {
    const app = makeHandler({ apiKey: ADMIN });
    const store = app.store as ManagedLinkStore;
    const key = generateApiKey();
    await store.createKey('alice', await hashApiKey(key), app.clock.now);
    // With API_KEY set every create needs a key: this link is made as an open server makes it.
    const open = makeHandler({ store });
    const made = (await json(await open.post('/api/v1/shorten', { original_url: URL_A, custom_code: 'guest' }))).data;
    const claim = (body: unknown, headers: Record<string, string>) => app.post('/api/v1/links/claim', body, headers);
    const claims = [
      { code: made.code, claim_token: made.claim_token },
      { code: 'nobody', claim_token: made.claim_token },
    ];
    const path = '/api/v1/links/claim';
    await expectDeclared(await claim({ claims }, { 'X-API-Key': key }), path, 'post', 200);
    await expectDeclared(await claim({ claims: [] }, { 'X-API-Key': key }), path, 'post', 400);
    await expectDeclared(await claim({ claims }, {}), path, 'post', 401);
    await expectDeclared(await claim({ claims }, asAdmin), path, 'post', 403);
  });

  it('are not listed where the store keeps no owners (the extension)', async () => {
    const { create, findByCodeKey, ping, close } = createMemoryLinkStore();
    const plain: LinkStore = { create, findByCodeKey, ping, close };
    const document = await json(await makeHandler({ store: plain }).fetch('/api/v1/openapi.json'));
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/api/v1/links'))).toEqual([]);
    expect(Object.keys(document.paths).filter((path) => /^\/api\/v1\/(keys|me)/.test(path))).toEqual([]);
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/api/v1/links'))).toHaveLength(7);
  });
});

describe('the keys and links endpoints answer as the document says', () => {
  const ADMIN = 'admin-key-for-openapi';
  const asKey = (key: string) => ({ 'X-API-Key': key, 'Content-Type': 'application/json' });
  const send = (app: TestApp, method: string, path: string, key?: string, body?: unknown) =>
    app.fetch(path, {
      method,
      headers: key === undefined ? { 'Content-Type': 'application/json' } : asKey(key),
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });

  it('keys: 201, 200, 400, 401, 403, 404 and 413; me: 200 and 401', async () => {
    const app = makeHandler({ apiKey: ADMIN });
    const made = await send(app, 'POST', '/api/v1/keys', ADMIN, { name: 'alice' });
    const alice = (await json(made.clone())).data as { id: number; key: string };
    await expectDeclared(made, '/api/v1/keys', 'post', 201);
    await expectDeclared(await send(app, 'POST', '/api/v1/keys', ADMIN, { name: ' ' }), '/api/v1/keys', 'post', 400);
    await expectDeclared(
      await send(app, 'POST', '/api/v1/keys', undefined, { name: 'x' }),
      '/api/v1/keys',
      'post',
      401,
    );
    await expectDeclared(
      await send(app, 'POST', '/api/v1/keys', alice.key, { name: 'x' }),
      '/api/v1/keys',
      'post',
      403,
    );
    const big = { name: 'x'.repeat(20_000) };
    await expectDeclared(await send(app, 'POST', '/api/v1/keys', ADMIN, big), '/api/v1/keys', 'post', 413);
    await send(app, 'GET', '/api/v1/me', alice.key); // alice's last use, so a listing shows a date
    await expectDeclared(await send(app, 'GET', '/api/v1/keys', ADMIN), '/api/v1/keys', 'get', 200);
    await expectDeclared(await send(app, 'GET', '/api/v1/keys', alice.key), '/api/v1/keys', 'get', 403);
    await expectDeclared(await send(app, 'HEAD', '/api/v1/keys', ADMIN), '/api/v1/keys', 'head', 200);
    await expectDeclared(await send(app, 'PUT', '/api/v1/keys', ADMIN), '/api/v1/keys', 'put', 405);
    await expectDeclared(await send(app, 'GET', '/api/v1/me', alice.key), '/api/v1/me', 'get', 200);
    await expectDeclared(await send(app, 'GET', '/api/v1/me', ADMIN), '/api/v1/me', 'get', 200);
    await expectDeclared(await send(app, 'GET', '/api/v1/me', 'lk_wrong'), '/api/v1/me', 'get', 401);
    const revoke = (id: string, key?: string) => send(app, 'DELETE', `/api/v1/keys/${id}`, key);
    await expectDeclared(await revoke(String(alice.id), alice.key), '/api/v1/keys/{id}', 'delete', 403);
    await expectDeclared(await revoke('999'), '/api/v1/keys/{id}', 'delete', 401);
    await expectDeclared(await revoke('999', ADMIN), '/api/v1/keys/{id}', 'delete', 404);
    await expectDeclared(await revoke('abc', ADMIN), '/api/v1/keys/{id}', 'delete', 404);
    await expectDeclared(await revoke(String(alice.id), ADMIN), '/api/v1/keys/{id}', 'delete', 200);
    await expectDeclared(await send(app, 'GET', '/api/v1/me', alice.key), '/api/v1/me', 'get', 401);
    await expectDeclared(await send(app, 'GET', '/api/v1/keys/1', ADMIN), '/api/v1/keys/{id}', 'get', 405);
  });

  it('links: listing, changes with a tombstone, one link with its clicks, patch and delete', async () => {
    const app = makeHandler({ apiKey: ADMIN });
    const alice = (await json(await send(app, 'POST', '/api/v1/keys', ADMIN, { name: 'alice' }))).data.key as string;
    const since = new Date(app.clock.now).toISOString();
    for (const code of ['one', 'two', 'three', '한글']) {
      await app.post('/api/v1/shorten', { original_url: `${URL_A}/${code}`, custom_code: code }, asKey(alice));
    }
    await app.post(
      '/api/v1/shorten',
      { original_url: URL_A, custom_code: 'brief', expire_duration: '24h' },
      asKey(alice),
    );
    await app.post('/api/v1/shorten', { original_url: URL_A, custom_code: 'admins' }, asKey(ADMIN));
    // null: no key at all (undefined would take the default)
    const list = (query: string, key: string | null = alice) =>
      send(app, 'GET', `/api/v1/links${query}`, key ?? undefined);

    const first = await list('?limit=2');
    const cursor = (await json(first.clone())).data.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    await expectDeclared(first, '/api/v1/links', 'get', 200);
    await expectDeclared(await list(`?limit=100&cursor=${encodeURIComponent(cursor)}`), '/api/v1/links', 'get', 200);
    await expectDeclared(await list('?search=ON&status=active'), '/api/v1/links', 'get', 200);
    await expectDeclared(await list('', ADMIN), '/api/v1/links', 'get', 200);
    await expectDeclared(await list('?limit=2', null), '/api/v1/links', 'get', 401);
    for (const bad of ['?limit=0', '?limit=101', '?cursor=forged', '?status=gone', '?changed_since=yesterday']) {
      await expectDeclared(await list(bad), '/api/v1/links', 'get', 400);
    }

    const link = (code: string, method = 'GET', key: string | null = alice, body?: unknown) =>
      send(app, method, `/api/v1/links/${encodeURIComponent(code)}`, key ?? undefined, body);
    const detail = await link('one');
    expect((await json(detail.clone())).data.clicks_by_day).toHaveLength(30);
    await expectDeclared(detail, '/api/v1/links/{code}', 'get', 200);
    await expectDeclared(await link('한글'), '/api/v1/links/{code}', 'get', 200);
    await expectDeclared(await link('한글', 'HEAD'), '/api/v1/links/{code}', 'head', 200);
    await expectDeclared(await link('admins'), '/api/v1/links/{code}', 'get', 404);
    await expectDeclared(await link('one', 'GET', null), '/api/v1/links/{code}', 'get', 401);
    await expectDeclared(await link('one', 'PUT'), '/api/v1/links/{code}', 'put', 405);

    const patch = (code: string, body: unknown) => link(code, 'PATCH', alice, body);
    await expectDeclared(await patch('two', { disabled: true }), '/api/v1/links/{code}', 'patch', 200);
    await expectDeclared(
      await patch('two', { original_url: `${URL_A}/new`, disabled: false }),
      '/api/v1/links/{code}',
      'patch',
      200,
    );
    for (const bad of [{}, { disabled: 'yes' }, { original_url: 'javascript:alert(1)' }, '[1]', 'not json']) {
      await expectDeclared(await patch('two', bad), '/api/v1/links/{code}', 'patch', 400);
    }
    await expectDeclared(await patch('admins', { disabled: true }), '/api/v1/links/{code}', 'patch', 404);
    await expectDeclared(
      await patch('two', { original_url: URL_A, pad: 'x'.repeat(20_000) }),
      '/api/v1/links/{code}',
      'patch',
      413,
    );

    await expectDeclared(await link('three', 'DELETE'), '/api/v1/links/{code}', 'delete', 200);
    await expectDeclared(await link('three', 'DELETE'), '/api/v1/links/{code}', 'delete', 404);
    await expectDeclared(await link('one', 'DELETE', null), '/api/v1/links/{code}', 'delete', 401);

    const changes = await list(`?changed_since=${since}`);
    const changed = (await json(changes.clone())).data.links as Array<{ code: string; deleted?: true }>;
    expect(changed).toContainEqual(expect.objectContaining({ code: 'three', deleted: true }));
    await expectDeclared(changes, '/api/v1/links', 'get', 200);
    await expectDeclared(await list(`?changed_since=${since}&status=active`), '/api/v1/links', 'get', 400);

    app.clock.advance(2 * DAY);
    await expectDeclared(await patch('brief', { disabled: true }), '/api/v1/links/{code}', 'patch', 410);
    await expectDeclared(await list('?status=expired'), '/api/v1/links', 'get', 200);
  });

  it('the preflight of a link names the methods the server allows', async () => {
    const app = makeHandler({ apiKey: ADMIN });
    const preflight = await app.fetch('/api/v1/links/one', {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'PATCH' },
    });
    const declared = doc.paths['/api/v1/links/{code}'].options.responses['204'].headers['Access-Control-Allow-Methods'];
    expect(declared.description).toContain(preflight.headers.get('access-control-allow-methods'));
    await expectDeclared(preflight, '/api/v1/links/{code}', 'options', 204);
    const shlink = await app.fetch('/rest/v3/tags', {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.shlink.io', 'Access-Control-Request-Method': 'PUT' },
    });
    const shlinkDeclared = doc.paths['/rest/v3/tags'].options.responses['204'].headers['Access-Control-Allow-Methods'];
    expect(shlinkDeclared.description).toContain(shlink.headers.get('access-control-allow-methods'));
    expect(shlink.headers.get('access-control-allow-methods')).toContain('PUT');
  });
});
