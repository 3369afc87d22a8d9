import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { toYourlsXml } from '../../core/compat/yourls/yourls-xml.js';
import { dayOf } from '../../core/rules/clicks.js';
import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { DAY, json, makeHandler, START, type TestApp } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const PATH = '/yourls-api.php';
// biome-ignore lint/suspicious/noExplicitAny: answers are read as plain JSON.
type Json = any;

/** A handler (with `API_KEY` unless told otherwise) and two owners, alice and bob, each with a key. */
async function withOwners(options: { apiKey?: string } = { apiKey: ADMIN }) {
  const store = createMemoryLinkStore();
  const app = makeHandler({ ...options, store });
  // Keys are made by the administrator, on the same store, whether or not `app` has API_KEY.
  const keys = makeHandler({ apiKey: ADMIN, store });
  const makeKey = async (name: string) =>
    (await json(await keys.post('/api/v1/keys', { name }, { 'X-API-Key': ADMIN }))).data.key as string;
  return { app, store, alice: await makeKey('alice'), bob: await makeKey('bob') };
}

/** A GET of YOURLS's API with these fields in the query. */
function get(app: TestApp, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return app.fetch(`${PATH}?${new URLSearchParams(fields)}`, { headers });
}

/** A POST of YOURLS's API with these fields as an urlencoded form (and `query` in the query string). */
function postForm(
  app: TestApp,
  fields: Record<string, string>,
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const search = Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : '';
  return app.fetch(`${PATH}${search}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The elements of a YOURLS XML answer, nested as objects (the shape `format=json` has). */
function parseXml(text: string): Json {
  expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<root>')).toBe(true);
  expect(text.endsWith('</root>\n')).toBe(true);
  const body = text.slice(text.indexOf('<root>') + 6, text.lastIndexOf('</root>'));
  const unescapeText = (value: string) =>
    value.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#13;/g, '\r').replace(/&amp;/g, '&');
  const read = (xml: string): Json => {
    const members: Json = {};
    let rest = xml;
    while (rest.length > 0) {
      const empty = /^<([A-Za-z_][\w.-]*)\/>/.exec(rest);
      if (empty?.[1] !== undefined) {
        members[empty[1]] = '';
        rest = rest.slice(empty[0].length);
        continue;
      }
      const open = /^<([A-Za-z_][\w.-]*)>/.exec(rest);
      if (open?.[1] === undefined) throw new Error(`not well-formed at: ${rest.slice(0, 40)}`);
      const name = open[1];
      const close = `</${name}>`;
      // `<url>` holds a `<url>` of its own (shorturl's answer): the close is found by depth.
      const tags = new RegExp(`<${name}>|</${name}>`, 'g');
      tags.lastIndex = open[0].length;
      let depth = 1;
      let end = -1;
      for (let tag = tags.exec(rest); tag !== null; tag = tags.exec(rest)) {
        depth += tag[0] === close ? -1 : 1;
        if (depth === 0) {
          end = tag.index;
          break;
        }
      }
      if (end < 0) throw new Error(`<${name}> is never closed`);
      const inner = rest.slice(open[0].length, end);
      expect(inner, 'text holds no raw markup characters').not.toMatch(/&(?!(amp|lt|gt|#13);)/);
      members[name] = inner.startsWith('<') ? read(inner) : unescapeText(inner);
      rest = rest.slice(end + close.length);
    }
    return members;
  };
  return read(body);
}

let ajv: Ajv2020;
let doc: Json;
const DOC_ID = 'https://sho.rt/api/v1/openapi.json';

beforeAll(async () => {
  doc = await json(await makeHandler().fetch('/api/v1/openapi.json'));
  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
});

/** Checks a JSON answer against the schema the OpenAPI document declares for its status. */
function expectDocumented(status: number, body: Json, method: 'get' | 'post' = 'get') {
  const declared = doc.paths[PATH][method].responses[String(status)];
  expect(declared, `${status} is declared`).toBeDefined();
  const ref = declared.content['application/json'].schema.$ref;
  const validate = ajv.compile({ $ref: `${DOC_ID}${ref}` });
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
}

describe('action=shorturl', () => {
  it('makes a link that expires after COMPAT_EXPIRE_DURATION and answers as YOURLS does, in JSON', async () => {
    const { app, store, alice } = await withOwners();
    const response = await get(app, {
      action: 'shorturl',
      url: 'https://example.com/page',
      keyword: 'Promo',
      title: 'A page',
      format: 'json',
      signature: alice,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // No CORS without Origin: a script on a page (which sends it) gets them, see the 413 below.
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(body).toEqual({
      status: 'success',
      code: '',
      message: 'https://example.com/page added to database',
      errorCode: '',
      statusCode: '200',
      url: {
        keyword: 'Promo',
        url: 'https://example.com/page',
        title: 'A page',
        date: '2026-01-31 12:00:00',
        ip: '0.0.0.0',
      },
      title: 'A page',
      shorturl: 'https://sho.rt/Promo',
    });
    expectDocumented(200, body);
    const link = await store.findByCodeKey('promo');
    // 1month from 2026-01-31 is clamped to 2026-02-28.
    expect(link).toMatchObject({ title: 'A page', expiresAt: Date.UTC(2026, 1, 28, 12) });
    expect(link?.ownerId).toBeDefined();
  });

  it('follows COMPAT_EXPIRE_DURATION and writes dates in the server time zone', async () => {
    const app = makeHandler({ compatExpireDuration: '24h', timeZone: 'Asia/Seoul' });
    const body = await (await get(app, { action: 'shorturl', url: 'https://example.com/', format: 'json' })).json();
    expect(body.url.date).toBe('2026-01-31 21:00:00');
    const link = await app.store.findByCodeKey(body.url.keyword.toLowerCase());
    expect(link?.expiresAt).toBe(START + DAY);
  });

  it('gives the short URL alone for format=simple, as text', async () => {
    const app = makeHandler({ codes: ['abc2345'] });
    const response = await postForm(app, { action: 'shorturl', url: 'https://example.com/', format: 'simple' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('https://sho.rt/abc2345');
  });

  it('writes XML by default, well-formed and escaped, the long URL as title when none is given', async () => {
    const app = makeHandler({ codes: ['abc2345'] });
    const url = 'https://example.com/?a=1&b=<2>';
    const response = await get(app, { action: 'shorturl', url });
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('<message>https://example.com/?a=1&amp;b=&lt;2&gt; added to database</message>');
    expect(text).toContain('<code/>');
    expect(parseXml(text)).toEqual({
      status: 'success',
      code: '',
      message: `${url} added to database`,
      errorCode: '',
      statusCode: '200',
      url: { keyword: 'abc2345', url, title: url, date: '2026-01-31 12:00:00', ip: '0.0.0.0' },
      title: url,
      shorturl: 'https://sho.rt/abc2345',
    });
  });

  it('cuts a long URL in the message as YOURLS does', async () => {
    const url = `https://example.com/${'x'.repeat(80)}`;
    const body = await (await get(makeHandler(), { action: 'shorturl', url, format: 'json' })).json();
    expect(body.message).toBe(`${url.slice(0, 55)}[...] added to database`);
    expect(body.url.url).toBe(url);
  });

  it('takes form fields over the query, multipart forms too', async () => {
    const app = makeHandler({ codes: ['abc2345'] });
    const form = new FormData();
    form.set('action', 'shorturl');
    form.set('url', 'https://example.com/form');
    form.set('keyword', '한글');
    form.set('format', 'json');
    const response = await app.fetch(`${PATH}?url=https://example.com/query&format=xml`, {
      method: 'POST',
      body: form,
    });
    const body = await response.json();
    expect(body.url).toMatchObject({ url: 'https://example.com/form', keyword: '한글' });
    expect(body.shorturl).toBe('https://sho.rt/한글');
  });

  it('makes a new code for a URL it already has (YOURLS would answer error:url)', async () => {
    const app = makeHandler({ codes: ['abc2345', 'def6789'] });
    const first = await (await get(app, { action: 'shorturl', url: 'https://example.com/', format: 'simple' })).text();
    const second = await (await get(app, { action: 'shorturl', url: 'https://example.com/', format: 'simple' })).text();
    expect([first, second]).toEqual(['https://sho.rt/abc2345', 'https://sho.rt/def6789']);
  });

  it('refuses a taken keyword with error:keyword, whatever its ASCII case', async () => {
    const app = makeHandler();
    await get(app, { action: 'shorturl', url: 'https://example.com/', keyword: 'promo' });
    const response = await get(app, {
      action: 'shorturl',
      url: 'https://example.com/',
      keyword: 'PROMO',
      format: 'json',
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toEqual({
      status: 'fail',
      code: 'error:keyword',
      message: 'Short URL PROMO already exists in database or is reserved; choose another keyword.',
      errorCode: '400',
      statusCode: '400',
    });
    expectDocumented(400, body);
  });

  it.each([
    ['a keyword with a dot', { keyword: 'a.b' }, 'error:keyword', /^keyword may only contain/],
    ['a reserved keyword', { keyword: 'health' }, 'error:keyword', /^keyword 'health' is reserved/],
    ['a keyword of 65 characters', { keyword: 'a'.repeat(65) }, 'error:keyword', /^keyword must be 1 to 64/],
    ['no url', { url: '' }, 'error:nourl', /^Missing or malformed URL/],
    ['a url that is not http', { url: 'ftp://example.com/' }, 'error:nourl', /^url /],
    ['a title of 201 characters', { title: 't'.repeat(201) }, 'error:title', /^title must be at most 200/],
  ])('refuses %s with %s and Linklet’s explanation', async (_, fields, code, message) => {
    const app = makeHandler();
    const response = await get(app, { action: 'shorturl', url: 'https://example.com/', format: 'json', ...fields });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ status: 'fail', code, errorCode: '400', statusCode: '400' });
    expect(body.message).toMatch(message);
    expect(await app.store.findByCodeKey('a.b')).toBeUndefined();
  });

  it('refuses one of its own short URLs as YOURLS refuses a loop: error:noloop, in JSON, XML and simple', async () => {
    const app = makeHandler({ codes: ['loop234'] });
    await get(app, { action: 'shorturl', url: 'https://example.com/', keyword: 'foo' });
    for (const url of ['https://sho.rt/foo', 'http://SHO.RT/foo', ' https://sho.rt/other ']) {
      const response = await get(app, { action: 'shorturl', url, format: 'json' });
      expect(response.status, url).toBe(400);
      const body = await response.json();
      expect(body, url).toEqual({
        status: 'fail',
        code: 'error:noloop',
        message: expect.stringMatching(/^URL is a short URL: url points at this service \(sho\.rt\)/),
        errorCode: '400',
        statusCode: '400',
      });
      expectDocumented(400, body);
    }
    const xml = await (await get(app, { action: 'shorturl', url: 'https://sho.rt/foo' })).text();
    expect(parseXml(xml)).toMatchObject({ status: 'fail', code: 'error:noloop', errorCode: '400', statusCode: '400' });
    const simple = await get(app, { action: 'shorturl', url: 'https://sho.rt/foo', format: 'simple' });
    expect(simple.status).toBe(400);
    expect(await simple.text()).toMatch(/^URL is a short URL: /);
    expect(await app.store.findByCodeKey('loop234')).toBeUndefined();
  });

  it('answers a refusal in the asked format: XML by default, the message alone for simple', async () => {
    const app = makeHandler();
    const xml = await (await get(app, { action: 'shorturl', url: 'nope' })).text();
    expect(parseXml(xml)).toMatchObject({ status: 'fail', code: 'error:nourl', errorCode: '400' });
    const simple = await get(app, { action: 'shorturl', url: 'nope', format: 'simple' });
    expect(simple.status).toBe(400);
    expect(await simple.text()).toMatch(/^url must be an absolute http or https URL/);
  });
});

describe('authentication', () => {
  it('refuses a server with API_KEY without a key as YOURLS does: 403 "Please log in"', async () => {
    const { app } = await withOwners();
    for (const action of ['shorturl', 'version', 'stats', 'nonsense']) {
      const response = await get(app, { action, url: 'https://example.com/', format: 'json' });
      expect(response.status).toBe(403);
      const body = await response.json();
      expect(body).toEqual({
        message: expect.stringMatching(/^Please log in: send a Linklet API key/),
        errorCode: '403',
      });
      expectDocumented(403, body);
    }
    const xml = await (await get(app, { action: 'version' })).text();
    expect(parseXml(xml)).toEqual({ message: expect.stringMatching(/^Please log in/), errorCode: '403' });
  });

  it('takes signature, X-API-Key and Authorization: Bearer alike, as the administrator or an owner', async () => {
    const { app, alice } = await withOwners();
    const version = { action: 'version', format: 'json' };
    expect((await get(app, { ...version, signature: ADMIN })).status).toBe(200);
    expect((await get(app, { ...version, signature: alice })).status).toBe(200);
    expect((await get(app, version, { 'X-API-Key': alice })).status).toBe(200);
    expect((await get(app, version, { Authorization: `Bearer ${ADMIN}` })).status).toBe(200);
    expect((await postForm(app, { ...version, signature: alice })).status).toBe(200);
  });

  it('refuses a wrong key, a time-limited signature and a username with what to send instead', async () => {
    const { app, alice } = await withOwners();
    const refused = async (fields: Record<string, string>) => {
      const response = await get(app, { action: 'version', format: 'json', ...fields });
      expect(response.status).toBe(403);
      return (await response.json()).message as string;
    };
    expect(await refused({ signature: `${alice}x` })).toMatch(/^Please log in: the key is not valid/);
    expect(await refused({ signature: 'a1b2c3d4e5', timestamp: '1700000000' })).toMatch(/time-limited signatures/);
    expect(await refused({ username: 'admin', password: 'secret' })).toMatch(/usernames and passwords/);
    // A signature from the query is not overruled by a key header: the wrong one is refused.
    const mixed = await get(app, { action: 'version', format: 'json', signature: 'wrong' }, { 'X-API-Key': ADMIN });
    expect(mixed.status).toBe(403);
  });

  it('lets anyone shorten on a server without API_KEY, but reading links needs a key', async () => {
    const { app, alice } = await withOwners({});
    const made = await get(app, { action: 'shorturl', url: 'https://example.com/', keyword: 'open', format: 'json' });
    expect(made.status).toBe(200);
    expect((await get(app, { action: 'version', format: 'json' })).status).toBe(200);
    for (const action of ['expand', 'url-stats', 'stats', 'db-stats']) {
      const response = await get(app, { action, shorturl: 'open', format: 'json' });
      expect(response.status, action).toBe(403);
      expect((await response.json()).message).toMatch(/^Please log in/);
    }
    // An owner's key still makes the owner's links there, and sees only those.
    await get(app, { action: 'shorturl', url: 'https://example.com/', keyword: 'mine', signature: alice });
    const totals = await (await get(app, { action: 'db-stats', format: 'json', signature: alice })).json();
    expect(totals['db-stats']).toEqual({ total_links: 1, total_clicks: 0 });
    expect((await get(app, { action: 'expand', shorturl: 'open', signature: alice })).status).toBe(404);
    expect((await get(app, { action: 'expand', shorturl: 'mine', signature: alice })).status).toBe(200);
  });
});

describe('reading links', () => {
  /** alice's two links and bob's one, with clicks. */
  async function withLinks() {
    const owners = await withOwners();
    const { app, store, alice, bob } = owners;
    const make = async (key: string, keyword: string, title?: string) => {
      const fields = { action: 'shorturl', url: `https://example.com/${keyword}`, keyword, signature: key };
      const response = await get(app, title === undefined ? fields : { ...fields, title });
      expect(response.status).toBe(200);
      app.clock.advance(60_000);
    };
    await make(alice, 'a-one', 'First & <best>');
    await make(alice, 'a-two');
    await make(bob, 'b-one');
    await (store as ManagedLinkStore).addClicks({
      day: dayOf(START),
      codeKeys: ['a-one', 'a-two', 'b-one'],
      counts: [3, 7, 100],
    });
    return owners;
  }

  it('expands a code or a full short URL of the caller’s own links', async () => {
    const { app, alice } = await withLinks();
    for (const shorturl of ['a-one', 'A-ONE', 'https://sho.rt/a-one', 'https://sho.rt/a-one/']) {
      const response = await get(app, { action: 'expand', shorturl, format: 'json', signature: alice });
      expect(response.status, shorturl).toBe(200);
      const body = await response.json();
      expect(body).toEqual({
        keyword: 'a-one',
        shorturl: 'https://sho.rt/a-one',
        longurl: 'https://example.com/a-one',
        title: 'First & <best>',
        message: 'success',
        statusCode: '200',
      });
      expectDocumented(200, body);
    }
    const simple = await get(app, { action: 'expand', shorturl: 'a-one', format: 'simple', signature: alice });
    expect(await simple.text()).toBe('https://example.com/a-one');
    const xml = await (await get(app, { action: 'expand', shorturl: 'a-one', signature: alice })).text();
    expect(parseXml(xml)).toMatchObject({ keyword: 'a-one', longurl: 'https://example.com/a-one', statusCode: '200' });
  });

  it("does not expand another owner's link, another host's or a word that is no code: YOURLS's 404", async () => {
    const { app, alice, bob } = await withLinks();
    for (const shorturl of ['b-one', 'https://other.example/a-one', 'no.such', '']) {
      const response = await get(app, { action: 'expand', shorturl, format: 'json', signature: alice });
      expect(response.status, shorturl).toBe(404);
      const body = await response.json();
      expect(body).toMatchObject({ message: 'Error: short URL not found', errorCode: '404' });
      expectDocumented(404, body);
    }
    expect((await get(app, { action: 'expand', shorturl: 'b-one', format: 'json', signature: bob })).status).toBe(200);
    expect((await get(app, { action: 'expand', shorturl: 'b-one', format: 'json', signature: ADMIN })).status).toBe(
      200,
    );
    const simple = await get(app, { action: 'expand', shorturl: 'b-one', format: 'simple', signature: alice });
    expect(await simple.text()).toBe('not found');
  });

  it('expands the short URLs of a server whose BASE_URL has a path', async () => {
    const app = makeHandler({ baseUrl: 'https://sho.rt/s', apiKey: ADMIN, codes: ['abc2345'] });
    const made = await get(app, {
      action: 'shorturl',
      url: 'https://example.com/',
      format: 'simple',
      signature: ADMIN,
    });
    expect(await made.text()).toBe('https://sho.rt/s/abc2345');
    for (const [shorturl, status] of [
      ['https://sho.rt/s/abc2345', 200],
      ['abc2345', 200],
      ['https://sho.rt/abc2345', 404],
    ] as const) {
      const answered = await get(app, { action: 'expand', shorturl, format: 'json', signature: ADMIN });
      expect(answered.status, shorturl).toBe(status);
    }
  });

  it('gives url-stats of the caller’s own link with its clicks, in XML by default', async () => {
    const { app, alice } = await withLinks();
    const xml = await (await get(app, { action: 'url-stats', shorturl: 'a-one', signature: alice })).text();
    expect(xml).toContain('<title>First &amp; &lt;best&gt;</title>');
    expect(parseXml(xml)).toEqual({
      statusCode: '200',
      message: 'success',
      link: {
        shorturl: 'https://sho.rt/a-one',
        url: 'https://example.com/a-one',
        title: 'First & <best>',
        timestamp: '2026-01-31 12:00:00',
        ip: '0.0.0.0',
        clicks: '3',
      },
    });
    const json = await (
      await get(app, { action: 'url-stats', shorturl: 'a-one', format: 'json', signature: alice })
    ).json();
    expect(json.link.clicks).toBe(3);
    expectDocumented(200, json);
    const other = await get(app, { action: 'url-stats', shorturl: 'b-one', format: 'json', signature: alice });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ statusCode: '404', message: 'Error: short URL not found' });
    const simple = await get(app, { action: 'url-stats', shorturl: 'a-one', format: 'simple', signature: alice });
    expect(await simple.text()).toBe('Need either XML or JSON format for stats');
  });

  it('lists stats of the caller’s links by filter and limit, with the caller’s totals', async () => {
    const { app, alice } = await withLinks();
    const stats = async (fields: Record<string, string>, key = alice) => {
      const response = await get(app, { action: 'stats', format: 'json', signature: key, ...fields });
      expect(response.status).toBe(200);
      const body = await response.json();
      expectDocumented(200, body);
      return body;
    };
    const top = await stats({ filter: 'top', limit: '10' });
    expect(Object.keys(top.links)).toEqual(['link_1', 'link_2']);
    expect(top.links.link_1).toMatchObject({ shorturl: 'https://sho.rt/a-two', clicks: 7 });
    expect(top.stats).toEqual({ total_links: 2, total_clicks: 10 });
    expect(top).toMatchObject({ statusCode: '200', message: 'success' });
    expect((await stats({ filter: 'bottom', limit: '1' })).links).toEqual({
      link_1: expect.objectContaining({ shorturl: 'https://sho.rt/a-one', clicks: 3 }),
    });
    expect((await stats({ filter: 'last', limit: '1' })).links.link_1.shorturl).toBe('https://sho.rt/a-two');
    expect((await stats({ filter: 'bottom', limit: '1', start: '1' })).links.link_1.shorturl).toBe(
      'https://sho.rt/a-two',
    );
    const random = await stats({ filter: 'rand', limit: '5' });
    expect(
      Object.values<Json>(random.links)
        .map((link) => link.shorturl)
        .sort(),
    ).toEqual(['https://sho.rt/a-one', 'https://sho.rt/a-two']);
    // YOURLS lists no links without a limit: the totals alone.
    const noLimit = await stats({});
    expect(noLimit).toEqual({ stats: { total_links: 2, total_clicks: 10 }, statusCode: '200', message: 'success' });
    const all = await stats({ limit: '10' }, ADMIN);
    expect(all.stats).toEqual({ total_links: 3, total_clicks: 110 });
    expect(all.links.link_1.shorturl).toBe('https://sho.rt/b-one');
    const xml = parseXml(await (await get(app, { action: 'stats', limit: '1', signature: alice })).text());
    expect(xml.links.link_1.shorturl).toBe('https://sho.rt/a-two');
  });

  it('counts every link of the caller however many pages the store reads', async () => {
    const app = makeHandler({ apiKey: ADMIN });
    const total = 1234;
    for (let i = 0; i < total; i++) {
      const code = `bulk${i}`;
      await app.store.create(
        {
          code,
          codeKey: code,
          originalUrl: 'https://example.com/',
          createdAt: START - i * 1000,
          expiresAt: START + DAY,
        },
        START,
      );
    }
    const body = await (await get(app, { action: 'db-stats', format: 'json', signature: ADMIN })).json();
    expect(body['db-stats']).toEqual({ total_links: total, total_clicks: 0 });
    const last = await (
      await get(app, { action: 'stats', filter: 'last', limit: '2000', signature: ADMIN, format: 'json' })
    ).json();
    expect(Object.keys(last.links)).toHaveLength(1000);
    expect(last.links.link_1000.shorturl).toBe('https://sho.rt/bulk999');
  });

  it('gives db-stats of the caller’s links (the administrator’s: all)', async () => {
    const { app, alice, bob } = await withLinks();
    const dbStats = async (key: string) =>
      (await get(app, { action: 'db-stats', format: 'json', signature: key })).json();
    const mine = await dbStats(alice);
    expect(mine).toEqual({ 'db-stats': { total_links: 2, total_clicks: 10 }, statusCode: '200', message: 'success' });
    expectDocumented(200, mine);
    expect((await dbStats(bob))['db-stats']).toEqual({ total_links: 1, total_clicks: 100 });
    expect((await dbStats(ADMIN))['db-stats']).toEqual({ total_links: 3, total_clicks: 110 });
    const xml = await (await get(app, { action: 'db-stats', signature: alice })).text();
    expect(parseXml(xml)).toEqual({
      'db-stats': { total_links: '2', total_clicks: '10' },
      statusCode: '200',
      message: 'success',
    });
    const simple = await get(app, { action: 'db-stats', format: 'simple', signature: alice });
    expect(simple.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await simple.text()).toBe('Need either XML or JSON format for stats');
  });
});

describe('formats, versions and refusals', () => {
  it('answers version as YOURLS, in every format', async () => {
    const app = makeHandler();
    const body = await (await get(app, { action: 'version', format: 'json' })).json();
    expect(body).toEqual({ version: '1.10.4' });
    expectDocumented(200, body);
    expect(await (await get(app, { action: 'version', format: 'simple' })).text()).toBe('1.10.4');
    expect(await (await get(app, { action: 'version', format: 'anything' })).text()).toBe('1.10.4');
    expect(await (await get(app, { action: 'version' })).text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<root><version>1.10.4</version></root>\n',
    );
  });

  it('refuses jsonp with a clear error and never echoes the callback', async () => {
    const app = makeHandler();
    const callback = 'alert(document.cookie)//';
    const response = await get(app, { action: 'version', format: 'jsonp', callback });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await response.text();
    expect(text).not.toContain('alert');
    expect(JSON.parse(text)).toMatchObject({ status: 'fail', code: 'error:invalid', errorCode: '400' });
    expect(JSON.parse(text).message).toMatch(/^format=jsonp is not offered.*Use format=json/);
  });

  it('answers an unknown or missing action with YOURLS’s 400', async () => {
    const app = makeHandler();
    for (const action of ['', 'delete', 'toString', '__proto__']) {
      const response = await get(app, { action, format: 'json' });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body).toEqual({
        errorCode: '400',
        message: expect.stringMatching(/^Unknown or missing "action" parameter/),
      });
      expectDocumented(400, body);
    }
  });

  it('refuses a body that is not a form, and a form that is not UTF-8', async () => {
    const app = makeHandler();
    const json = await app.post(PATH, { action: 'version' });
    expect(json.status).toBe(400);
    expect((await json.text()).includes('is not read')).toBe(true);
    const latin1 = await app.fetch(`${PATH}?format=json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new Uint8Array([...Buffer.from('action=shorturl&url=https://example.com/'), 0xe9]),
    });
    expect(latin1.status).toBe(400);
    expect((await latin1.json()).message).toMatch(/not valid UTF-8/);
  });

  it('answers a 405 and a 413 raised around the route in YOURLS’s shape, as JSON, with CORS', async () => {
    const app = makeHandler({ maxBodyBytes: 64 });
    const put = await app.fetch(PATH, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const refused = await put.json();
    expect(refused).toMatchObject({ status: 'fail', code: 'error:method', errorCode: '405', statusCode: '405' });
    expectDocumented(405, refused);
    const large = await postForm(
      app,
      { action: 'shorturl', url: `https://example.com/${'x'.repeat(100)}` },
      {},
      { Origin: 'https://elsewhere.example' },
    );
    expect(large.status).toBe(413);
    expect(large.headers.get('access-control-allow-origin')).toBe('*');
    const tooLarge = await large.json();
    expect(tooLarge).toMatchObject({ status: 'fail', code: 'error:toolarge', errorCode: '413' });
    expectDocumented(413, tooLarge, 'post');
  });

  it('answers CORS preflights and HEAD like the other API paths', async () => {
    const app = makeHandler();
    const preflight = await app.fetch(PATH, {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const head = await app.fetch(`${PATH}?action=version`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const checker = await app.fetch(`${PATH}?action=shorturl&url=https://example.com/&keyword=checked`, {
      method: 'HEAD',
    });
    expect(checker.status).toBe(400);
    expect(await app.store.findByCodeKey('checked')).toBeUndefined();
  });

  it("allows X-Requested-With in a preflight, which browser YOURLS libraries send; Linklet's own paths need not", async () => {
    const app = makeHandler();
    const asking = {
      Origin: 'https://elsewhere.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'x-requested-with,content-type',
    };
    const preflight = await app.fetch(PATH, { method: 'OPTIONS', headers: asking });
    expect(preflight.status).toBe(204);
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['x-requested-with', 'content-type']));
    const own = await app.fetch('/api/v1/shorten', { method: 'OPTIONS', headers: asking });
    expect(own.headers.get('access-control-allow-headers')).toBe('Content-Type,X-API-Key,Authorization');
  });

  it('is not served where the store keeps no owners (the extension)', async () => {
    const plainStore = { ...createMemoryLinkStore() } as Partial<ManagedLinkStore>;
    delete plainStore.listLinks;
    const app = makeHandler({ store: plainStore as ManagedLinkStore });
    const response = await get(app, { action: 'version', format: 'json' });
    expect(response.status).toBe(404);
  });
});

describe('the XML writer', () => {
  it('escapes markup, drops what XML cannot carry and nests members', () => {
    const xml = toYourlsXml({ a: 'x & y < z > w', b: 'bell\u0007 and \ud800 lone', c: { d: 1, e: null } });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<root><a>x &amp; y &lt; z &gt; w</a><b>bell and  lone</b><c><d>1</d><e/></c></root>\n',
    );
  });
});
