import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/server-process.mjs';
import { type RawResponse, rawRequest } from '../raw-http.js';
import { usePostgresSchema } from './postgres-schema.js';
import { useServerProcesses } from './use-server-processes.js';

// The exact requests the clients people use with YOURLS send, to a real server over real HTTP,
// and what each of them reads back. Each request is written as the client's source writes it.

const ADMIN = 'yourls-admin-key-0123456789';
const servers = useServerProcesses('yourls-clients');
const postgres = usePostgresSchema('linklet_yourls');

/** A server whose BASE_URL is its own address, so its short URLs can be followed and expanded. */
async function serve(env: Record<string, string> = {}) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await servers.start({
    DATABASE_URL: `sqlite:${servers.freshDb()}`,
    API_KEY: ADMIN,
    PORT: String(port),
    BASE_URL: origin,
    ...env,
  });
  const keyOf = async (name: string) => {
    const made = await fetch(`${origin}/api/v1/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': ADMIN },
      body: JSON.stringify({ name }),
    });
    expect(made.status).toBe(201);
    return ((await made.json()) as { data: { key: string } }).data.key;
  };
  return { origin, keyOf, server };
}

/**
 * ShareX's multipart body (ShareX/ShareX, ShareX.UploadersLib/Helpers/RequestHelpers.cs:
 * `CreateBoundary` and `MakeInputContent`): one part per argument, in order, then the final
 * boundary; the boundary is 20 dashes and the clock's ticks in hex.
 */
function shareXMultipart(args: Record<string, string>): { contentType: string; body: string } {
  const boundary = `${'-'.repeat(20)}${(638_000_000_000_000_000n + BigInt(Date.now())).toString(16)}`;
  let body = '';
  for (const [name, value] of Object.entries(args)) {
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  body += `--${boundary}--\r\n`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}

/** Follows a short URL once, without redirecting: its 302 and where it points. */
async function target(shortUrl: string): Promise<string | null> {
  const response = await fetch(shortUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return response.headers.get('location');
}

const pathOf = (origin: string, url: string) => url.slice(origin.length);

describe('ShareX', () => {
  it('shortens with its YOURLS uploader and reads the simple body as the short URL', async () => {
    const { origin, keyOf } = await serve();
    const signature = await keyOf('sharex');
    // ShareX/ShareX, ShareX.UploadersLib/URLShorteners/YourlsURLShortener.cs: `signature`, then
    // `action`, `url`, `format=simple`, sent by `SendRequestMultiPart` (POST) to the API URL;
    // `result.ShortenedURL = result.Response`.
    const long = 'https://example.com/screenshots/ShareX_2026-11-26_12-00.png?size=full&v=2';
    const { contentType, body } = shareXMultipart({ signature, action: 'shorturl', url: long, format: 'simple' });
    const response = await rawRequest(origin, {
      method: 'POST',
      path: '/yourls-api.php',
      headers: { 'Content-Type': contentType, 'User-Agent': 'ShareX/17.0.0' },
      body,
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const shortenedUrl = response.body;
    expect(shortenedUrl).toMatch(new RegExp(`^${origin}/[A-Za-z0-9_-]+$`));
    expect(await target(shortenedUrl)).toBe(new URL(long).href);
  });

  it('runs the custom uploader in docs/clients/linklet-yourls.sxcu as ShareX would', async () => {
    const { origin, keyOf } = await serve();
    const signature = await keyOf('sharex-custom');
    const sxcu = JSON.parse(readFileSync('docs/clients/linklet-yourls.sxcu', 'utf8'));
    // ShareX/ShareX, ShareX.UploadersLib/CustomUploader/CustomUploaderItem.cs: the fields of a
    // .sxcu; a URL shortener's `{input}` is the URL to shorten and `{response}` the answer's body
    // (CustomUploaderFunctionInput.cs, CustomUploaderFunctionResponse.cs).
    expect(sxcu).toMatchObject({ DestinationType: 'URLShortener', RequestMethod: 'POST', Body: 'MultipartFormData' });
    expect(sxcu.RequestURL).toBe('https://sho.rt/yourls-api.php');
    expect(sxcu.URL).toBe('{response}');
    const long = 'https://example.com/from-sharex';
    const args = Object.fromEntries(
      Object.entries<string>(sxcu.Arguments).map(([name, value]) => {
        // The one placeholder the file may use in an argument; anything else would go unsent.
        const filled = value.replaceAll('{input}', long);
        expect(filled, `${name} has no other ShareX syntax`).not.toMatch(/\{[a-z]+[^}]*\}/);
        return [name, name === 'signature' ? signature : filled];
      }),
    );
    expect(sxcu.Arguments.signature).toBe('YOUR-LINKLET-API-KEY');
    // The file's example host is this server's address here.
    const url = new URL(sxcu.RequestURL);
    const { contentType, body } = shareXMultipart(args);
    const response = await rawRequest(origin, {
      method: sxcu.RequestMethod,
      path: url.pathname + url.search,
      headers: { 'Content-Type': contentType },
      body,
    });
    expect(response.status).toBe(200);
    const shortened = sxcu.URL.replace('{response}', response.body);
    expect(shortened).toMatch(new RegExp(`^${origin}/[A-Za-z0-9_-]+$`));
    expect(await target(shortened)).toBe(long);
  });
});

/**
 * n8n's YOURLS node (n8n-io/n8n, packages/nodes-base/nodes/Yourls/GenericFunctions.ts
 * `yourlsApiRequest`): a GET of `${url}/yourls-api.php` with the node's fields in the query, then
 * `signature` and `format=json`, and (the `request` library's `json: true` with `body: {}`) a
 * `{}` JSON body. It throws when `status` is `fail`, else hands on the whole answer; `stats`
 * hands on `link` alone (Yourls.node.ts).
 */
function n8nRequest(origin: string, qs: Record<string, string>, signature: string): Promise<RawResponse> {
  const query = new URLSearchParams({ ...qs, signature, format: 'json' });
  return rawRequest(origin, {
    method: 'GET',
    path: `/yourls-api.php?${query}`,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: '{}',
  });
}

describe("n8n's YOURLS node", () => {
  it('shortens (with a keyword and title), expands and reads stats', async () => {
    const { origin, keyOf, server } = await serve();
    const signature = await keyOf('n8n');
    // Yourls.node.ts `shorten`: qs.url, qs.action = 'shorturl', then the additional fields.
    const made = await n8nRequest(
      origin,
      { url: 'https://example.com/n8n', action: 'shorturl', keyword: 'n8n-flow', title: 'From n8n' },
      signature,
    );
    expect(made.status).toBe(200);
    const shortened = JSON.parse(made.body);
    expect(shortened.status).not.toBe('fail');
    expect(shortened).toMatchObject({
      status: 'success',
      shorturl: `${origin}/n8n-flow`,
      title: 'From n8n',
      url: { keyword: 'n8n-flow', url: 'https://example.com/n8n' },
    });
    // `expand`: qs.shorturl (what a workflow has: the short URL), qs.action = 'expand'.
    const expanded = JSON.parse(
      (await n8nRequest(origin, { shorturl: shortened.shorturl, action: 'expand' }, signature)).body,
    );
    expect(expanded).toMatchObject({ keyword: 'n8n-flow', longurl: 'https://example.com/n8n', title: 'From n8n' });
    await target(shortened.shorturl); // one click
    // `stats`: qs.action = 'url-stats', and the node keeps `responseData.link`.
    const stats = JSON.parse(
      (await n8nRequest(origin, { shorturl: shortened.shorturl, action: 'url-stats' }, signature)).body,
    );
    expect(stats.link).toMatchObject({
      shorturl: `${origin}/n8n-flow`,
      url: 'https://example.com/n8n',
      title: 'From n8n',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(Number.isInteger(stats.link.clicks)).toBe(true);
    // The key rode in the query of every request: the access log writes paths, never queries.
    const logged = await server.waitForLogs((entry) => entry.path === '/yourls-api.php', 3);
    expect(logged.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(server.logs)).not.toContain(signature);
  });

  it('gets status "fail" for a taken keyword, which the node turns into its error', async () => {
    const { origin, keyOf } = await serve();
    const signature = await keyOf('n8n');
    const qs = { url: 'https://example.com/n8n', action: 'shorturl', keyword: 'taken' };
    expect((await n8nRequest(origin, qs, signature)).status).toBe(200);
    const again = await n8nRequest(origin, qs, signature);
    expect(again.status).toBe(400);
    expect(JSON.parse(again.body)).toMatchObject({
      status: 'fail',
      code: 'error:keyword',
      message: expect.any(String),
    });
  });

  it('is rate limited per key by its signature, in YOURLS’s shape', async () => {
    const { origin, keyOf } = await serve({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_PER_KEY_PER_MINUTE: '3' });
    const [busy, other] = [await keyOf('busy'), await keyOf('other')];
    const statuses = [];
    let last: RawResponse | undefined;
    for (let i = 0; i < 4; i++) {
      last = await n8nRequest(origin, { action: 'version' }, busy);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // n8n is a server: it sends no Origin, so no CORS (a page's script would get it).
    expect(last?.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(last?.body ?? '')).toMatchObject({ status: 'fail', code: 'error:flood', errorCode: '429' });
    expect((await n8nRequest(origin, { action: 'version' }, other)).status).toBe(200);
  });
});

/**
 * The YOURLS browser extension (binfalse/YOURLS-FirefoxExtension, webextension/background.js
 * `YOURLS()`): a POST of `application/x-www-form-urlencoded` fields to `<server>/yourls-api.php`,
 * built as `k=encodeURIComponent(v)` joined by `&`; a 200 or 201 body is matched against
 * `^\s*(\S+)\s*$` (the short URL), `version` against `<version>(\d+\.\d+.*)</version>`; a 403
 * tells the user to check the signature.
 */
function extensionRequest(origin: string, options: Record<string, string>): Promise<RawResponse> {
  const body = Object.entries(options)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  return rawRequest(origin, {
    method: 'POST',
    path: '/yourls-api.php',
    headers: { 'Content-type': 'application/x-www-form-urlencoded' },
    body,
  });
}

describe('the YOURLS browser extension', () => {
  it('checks the version, shortens the tab’s URL with a keyword, and reads the short URL', async () => {
    const { origin, keyOf } = await serve();
    const signature = await keyOf('browser');
    // The options page's check: `action: 'version', signature`, no format (XML).
    const version = await extensionRequest(origin, { action: 'version', signature });
    expect(version.status).toBe(200);
    expect(version.body.match(/^.*<version>(\d+\.\d+.*)<\/version>.*$/m)?.[1]).toBe('1.10.4');
    // `shortenLink`: action, format, url, signature, then keyword when given.
    const long = 'https://example.com/page?with=query&and=한글';
    const made = await extensionRequest(origin, {
      action: 'shorturl',
      format: 'simple',
      url: long,
      signature,
      keyword: '한글링크',
    });
    expect(made.status).toBe(200);
    const url = made.body.match(/^\s*(\S+)\s*$/m)?.[1];
    expect(url).toBe(`${origin}/한글링크`);
    expect(await target(`${origin}/${encodeURIComponent('한글링크')}`)).toBe(new URL(long).href);
  });

  it('gets the 403 it explains for a wrong signature, and a 400 for a URL it cannot shorten', async () => {
    const { origin } = await serve();
    const wrong = await extensionRequest(origin, {
      action: 'shorturl',
      format: 'simple',
      url: 'https://example.com/',
      signature: 'not-a-key',
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatch(/^Please log in: the key is not valid/);
    const aboutPage = await extensionRequest(origin, {
      action: 'shorturl',
      format: 'simple',
      url: 'about:addons',
      signature: ADMIN,
    });
    expect(aboutPage.status).toBe(400);
  });
});

it('keeps each owner to their own links over real HTTP', async () => {
  const { origin, keyOf } = await serve();
  const [alice, bob] = [await keyOf('alice'), await keyOf('bob')];
  const made = await extensionRequest(origin, {
    action: 'shorturl',
    format: 'simple',
    url: 'https://example.com/',
    signature: alice,
  });
  const code = pathOf(origin, made.body).slice(1);
  const asBob = await n8nRequest(origin, { shorturl: code, action: 'expand' }, bob);
  expect(asBob.status).toBe(404);
  const asAlice = await n8nRequest(origin, { shorturl: code, action: 'expand' }, alice);
  expect(JSON.parse(asAlice.body).longurl).toBe('https://example.com/');
  const bobsTotals = JSON.parse((await n8nRequest(origin, { action: 'db-stats' }, bob)).body);
  expect(bobsTotals['db-stats']).toEqual({ total_links: 0, total_clicks: 0 });
});

it('answers the same on PostgreSQL: a link made, its stats, the caller’s totals', async () => {
  const { origin, keyOf } = await serve({ DATABASE_URL: postgres.url() });
  const signature = await keyOf('pg');
  for (const keyword of ['pg-one', 'pg-two']) {
    const made = await n8nRequest(
      origin,
      { url: `https://example.com/${keyword}`, action: 'shorturl', keyword },
      signature,
    );
    expect(JSON.parse(made.body)).toMatchObject({ status: 'success', shorturl: `${origin}/${keyword}` });
  }
  const stats = JSON.parse((await n8nRequest(origin, { action: 'stats', filter: 'last', limit: '5' }, signature)).body);
  expect(Object.values<{ shorturl: string }>(stats.links).map((link) => link.shorturl)).toEqual([
    `${origin}/pg-two`,
    `${origin}/pg-one`,
  ]);
  expect(stats.stats).toEqual({ total_links: 2, total_clicks: 0 });
  const expanded = await extensionRequest(origin, {
    action: 'expand',
    format: 'simple',
    shorturl: 'pg-one',
    signature,
  });
  expect(expanded.body).toBe('https://example.com/pg-one');
});
