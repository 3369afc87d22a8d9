import { HttpResponse, http, type JsonBodyType } from 'msw';
import { describe, expect, it } from 'vitest';
import { probeServer } from '../../extension/server/probe-server.js';
import { linkletServer, SERVER, serverDown, useMockServer } from './helpers.js';

const { server, requests } = useMockServer();
const viaFetch = (input: string, init?: RequestInit) => fetch(input, init);
const describeEndpoint = (body: JsonBodyType, init?: ResponseInit) =>
  http.get(`${SERVER}/api/v1/shorten`, () => HttpResponse.json(body, init));

describe('probeServer', () => {
  it('recognises a Linklet server by its API description', async () => {
    server.use(linkletServer());
    expect(await probeServer(viaFetch, SERVER)).toEqual({
      ok: true,
      name: 'Linklet',
      endpoint: `${SERVER}/api/v1/shorten`,
    });
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${SERVER}/api/v1/shorten`]);
  });

  it.each([
    ['404', http.get(`${SERVER}/api/v1/shorten`, () => new HttpResponse('Not Found', { status: 404 })), 'HTTP 404'],
    ['500', http.get(`${SERVER}/api/v1/shorten`, () => new HttpResponse(null, { status: 500 })), 'HTTP 500'],
    [
      'an HTML page',
      http.get(`${SERVER}/api/v1/shorten`, () => HttpResponse.html('<h1>Hi</h1>')),
      'not a Linklet API description',
    ],
    ['other JSON', describeEndpoint({ hello: 'world' }), 'not a Linklet API description'],
    ['JSON that is not an object', describeEndpoint(null), 'not a Linklet API description'],
    [
      'the legacy description',
      describeEndpoint({ name: 'Linklet', endpoint: `${SERVER}/api.php`, version: 'legacy' }),
      'not a Linklet API description',
    ],
  ])('reports %s as not a Linklet server', async (_, handler, reason) => {
    server.use(handler);
    expect(await probeServer(viaFetch, SERVER)).toEqual({ ok: false, reason });
  });

  it('reports a server nobody answers for as unreachable', async () => {
    server.use(serverDown);
    const result = await probeServer(viaFetch, SERVER);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/^unreachable: /);
  });
});
