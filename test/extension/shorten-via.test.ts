import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError, UnreachableError } from '../../client/api-errors.js';
import { shortenVia } from '../../extension/server/shorten-via.js';
import { errorReply, linkletServer, SERVER, serverDown, useMockServer } from './helpers.js';

const { server, requests } = useMockServer();
const viaFetch = (input: string, init?: RequestInit) => fetch(input, init);

describe('shortenVia', () => {
  it('posts the v1 request and reads the v1 envelope', async () => {
    server.use(
      http.post(`${SERVER}/api/v1/shorten`, () =>
        HttpResponse.json(
          {
            status: 'success',
            message: 'The URL was shortened.',
            data: {
              short_url: `${SERVER}/한글/`,
              original_url: 'https://example.com/a',
              code: '한글',
              expiration_date: '2026-11-23T10:00:00.000Z',
            },
          },
          { status: 201 },
        ),
      ),
    );
    const link = await shortenVia(viaFetch, SERVER, { url: 'https://example.com/a', code: '한글', expire: '24h' });
    expect(link).toEqual({
      shortUrl: `${SERVER}/한글/`,
      originalUrl: 'https://example.com/a',
      code: '한글',
      expiresAt: Date.UTC(2026, 10, 23, 10, 0, 0),
    });
    expect(requests).toEqual([
      {
        method: 'POST',
        url: `${SERVER}/api/v1/shorten`,
        body: { original_url: 'https://example.com/a', custom_code: '한글', expire_duration: '24h' },
      },
    ]);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
  ])('leaves custom_code out when the code is %s, so the backend generates one', async (_, code) => {
    server.use(linkletServer());
    const link = await shortenVia(viaFetch, SERVER, { url: 'https://example.com/b', code, expire: '1week' });
    expect(link.code).toMatch(/^[23456789abcdefghjkmnpqrstuvwxyz]{7}$/);
    expect(link.shortUrl).toBe(`${SERVER}/${link.code}/`);
    expect(requests[0]?.body).toEqual({ original_url: 'https://example.com/b', expire_duration: '1week' });
  });

  it.each([
    [400, 'original_url must be an absolute http or https URL.', false],
    [401, 'A valid API key is required; send it in the X-API-Key header.', false],
    [409, "custom_code 'promo' is already in use; choose another code.", false],
    [413, 'The request body must be at most 16384 bytes.', false],
    [429, 'Too many requests.', true],
    [500, 'Internal server error; the server log has the details.', true],
    [502, 'Bad gateway.', true],
    [503, 'The link store is not answering.', true],
  ])(
    'turns a %i error envelope into an ApiError with its message (retryable: %s)',
    async (status, message, retryable) => {
      server.use(http.post(`${SERVER}/api/v1/shorten`, () => errorReply(status, message)));
      const error = await shortenVia(viaFetch, SERVER, { url: 'https://example.com', expire: '24h' }).catch((e) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status, message, retryable });
    },
  );

  it('explains an answer that is not a Linklet envelope', async () => {
    server.use(http.post(`${SERVER}/api/v1/shorten`, () => HttpResponse.html('<h1>Welcome to nginx</h1>')));
    const error = await shortenVia(viaFetch, SERVER, { url: 'https://example.com', expire: '24h' }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(200);
    expect(error.message).toBe('The server answered 200 without a Linklet response; is this a Linklet server?');
  });

  it('gives a generic message for an error without one', async () => {
    server.use(http.post(`${SERVER}/api/v1/shorten`, () => HttpResponse.json({}, { status: 502 })));
    const error = await shortenVia(viaFetch, SERVER, { url: 'https://example.com', expire: '24h' }).catch((e) => e);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 502,
      message: 'The server answered 502.',
      retryable: true,
    });
  });

  it('rejects with UnreachableError, naming the server, when nobody answers', async () => {
    server.use(serverDown);
    const error = await shortenVia(viaFetch, SERVER, { url: 'https://example.com', expire: '24h' }).catch((e) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error.message).toMatch(/^Could not reach https:\/\/sho\.rt: /);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('reports a thrown non-Error as it is', async () => {
    const error = await shortenVia(() => Promise.reject('offline'), SERVER, {
      url: 'https://example.com',
      expire: '24h',
    }).catch((e) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error.message).toBe('Could not reach https://sho.rt: offline');
  });
});
