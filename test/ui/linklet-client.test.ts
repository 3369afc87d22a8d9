import { describe, expect, it } from 'vitest';
import { AnswerTooLargeError, ApiError, UnreachableError } from '../../client/api-errors.js';
import { callLinklet, type LinkletTarget } from '../../client/call-linklet.js';
import { MAX_MESSAGE_LENGTH } from '../../client/envelope.js';
import type { FetchLike } from '../../client/fetch-like.js';
import { linkPath } from '../../client/link-path.js';
import type { LinkDetailView, LinkView } from '../../core/management/links/link-view.js';
import { BASE_URL, makeHandler } from '../api/make-handler.js';

const ADMIN = 'admin-key-0123456789';

/** The core's own handler answering the client: the same API a server or the extension serves. */
async function withCore(): Promise<{ target: LinkletTarget; seen: Request[] }> {
  const app = makeHandler({ apiKey: ADMIN });
  const seen: Request[] = [];
  const fetch: FetchLike = (input, init) => {
    const request = new Request(input, init);
    seen.push(request.clone());
    return app.handler(request);
  };
  const { data } = await callLinklet<{ key: string }>({ base: BASE_URL, apiKey: ADMIN, fetch }, 'api/v1/keys', {
    method: 'POST',
    body: { name: 'minji' },
  });
  return { target: { base: BASE_URL, apiKey: data.key, fetch }, seen };
}

/** A server that answers every request with `response` (or never, for `undefined`). */
function answering(response: () => Response | undefined): FetchLike {
  return (_input, init) =>
    new Promise((resolve, reject) => {
      const answer = response();
      if (answer) resolve(answer);
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
    });
}

describe('callLinklet against the core', () => {
  it('sends JSON with the key, and resolves with the envelope of the status the API gave', async () => {
    const { target, seen } = await withCore();
    const reply = await callLinklet<LinkView>(target, 'api/v1/shorten', {
      method: 'POST',
      body: { original_url: 'https://example.com/봄', custom_code: '봄-세일', expire_duration: '24h' },
    });
    expect(reply.status).toBe(201);
    expect(reply.data).toMatchObject({ code: '봄-세일', original_url: 'https://example.com/봄' });
    expect(reply.message).not.toBe('');
    const sent = seen.at(-1);
    expect(sent?.url).toBe(`${BASE_URL}/api/v1/shorten`);
    expect(sent?.headers.get('X-API-Key')).toBe(target.apiKey);
    expect(sent?.headers.get('Content-Type')).toBe('application/json');
  });

  it('reaches a link by its percent-encoded code, typed as the core shows it', async () => {
    const { target } = await withCore();
    await callLinklet(target, 'api/v1/shorten', {
      method: 'POST',
      body: { original_url: 'https://example.com/a', custom_code: '민준의링크', expire_duration: '24h' },
    });
    expect(linkPath('민준의링크')).toBe(`api/v1/links/${encodeURIComponent('민준의링크')}`);
    const { data } = await callLinklet<LinkDetailView>(target, linkPath('민준의링크'));
    expect(data.code).toBe('민준의링크');
    expect(data.clicks_by_day).toHaveLength(30);
  });

  it("rejects a refusal with the API's status and its own message", async () => {
    const { target } = await withCore();
    const taken = { original_url: 'https://example.com/a', custom_code: 'taken', expire_duration: '24h' };
    await callLinklet(target, 'api/v1/shorten', { method: 'POST', body: taken });
    const conflict = await callLinklet(target, 'api/v1/shorten', {
      method: 'POST',
      body: { ...taken, original_url: 'https://example.com/b' },
    }).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(ApiError);
    expect(conflict).toMatchObject({ status: 409, retryable: false });
    expect((conflict as ApiError).message).toMatch(/taken/);
    const refused = await callLinklet({ ...target, apiKey: 'lk_wrong' }, 'api/v1/me').catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'ApiError', status: 401 });
  });

  it('sends a file as it is, with its own content type', async () => {
    const { target, seen } = await withCore();
    const csv = 'code,original_url\nspring,https://example.com/spring\n';
    const { data } = await callLinklet<{ created: number }>(target, 'api/v1/links/import', {
      method: 'POST',
      raw: { text: csv, contentType: 'text/csv; charset=utf-8' },
    });
    expect(data.created).toBe(1);
    expect(seen.at(-1)?.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
  });
});

describe('callLinklet against servers that are not Linklet', () => {
  const base = 'https://sho.rt';

  it('says a body that is not JSON is no Linklet answer', async () => {
    const fetch = answering(() => new Response('<html>Welcome to nginx</html>', { status: 200 }));
    await expect(callLinklet({ base, fetch }, 'api/v1/me')).rejects.toThrow(
      new ApiError(200, 'The server answered 200 without a Linklet response; is this a Linklet server?'),
    );
  });

  it("cuts a refusal's message, so a hostile server cannot flood a page", async () => {
    const long = 'x'.repeat(10_000);
    const fetch = answering(() => Response.json({ status: 'error', message: long }, { status: 400 }));
    const error = (await callLinklet({ base, fetch }, 'api/v1/me').catch((caught: unknown) => caught)) as ApiError;
    expect(error.message).toHaveLength(MAX_MESSAGE_LENGTH);
  });

  it('rejects with UnreachableError naming the server when nothing answers the connection', async () => {
    const fetch: FetchLike = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(callLinklet({ base, fetch }, 'api/v1/me')).rejects.toThrow(
      new UnreachableError(base, new TypeError('Failed to fetch')),
    );
  });

  it('gives up at the deadline on a server that never answers, and says what to check', async () => {
    const error = await callLinklet({ base, fetch: answering(() => undefined), timeoutMs: 50 }, 'api/v1/me').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toMatch(/did not answer in time; check that the server is running/);
  });

  it('refuses an answer larger than the caller allows, before reading it all', async () => {
    const body = JSON.stringify({ status: 'success', data: 'y'.repeat(5000) });
    const fetch = answering(() => new Response(body, { status: 200 }));
    const error = await callLinklet({ base, fetch }, 'api/v1/links', { maxBytes: 1000 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect(error).toMatchObject({ maxBytes: 1000 });
  });

  it('treats a success status with an error envelope as a refusal', async () => {
    const fetch = answering(() => Response.json({ status: 'error', message: 'No.' }, { status: 200 }));
    await expect(callLinklet({ base, fetch }, 'api/v1/me')).rejects.toThrow(new ApiError(200, 'No.'));
  });
});
