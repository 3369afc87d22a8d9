import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createMemoryLinkStore } from '../../core/memory-link-store.js';
import { shortenVia } from '../../extension/api-client.js';
import { createLocalBackend } from '../../extension/create-local-backend.js';
import { localBase, openPageBase } from '../../extension/local-backend.js';
import { answerFetchMessage, createMessageFetch } from '../../extension/message-transport.js';
import { isLinkletMessage, type LinkletMessage } from '../../extension/messages.js';

const origin = localBase();
let handled: Request[];

/**
 * The Firefox wiring: the background answers `linklet:fetch` messages with the core handler, and
 * pages send requests through `browser.runtime.sendMessage`. Messages are structured-cloned, as
 * the browser does, so anything that would not survive the trip fails here.
 */
beforeEach(() => {
  handled = [];
  const handle = createLocalBackend(createMemoryLinkStore());
  fakeBrowser.runtime.onMessage.addListener((message: unknown) => {
    const received = structuredClone(message);
    if (!isLinkletMessage(received) || received.type !== 'linklet:fetch') return undefined;
    return answerFetchMessage(received.request, (request) => {
      handled.push(request.clone());
      return handle(request);
    }).then((reply) => structuredClone(reply));
  });
});

const fallback = vi.fn((_input: string, _init?: RequestInit) => Promise.resolve(new Response('from the network')));
const messageFetch = () =>
  createMessageFetch(origin, (message: LinkletMessage) => browser.runtime.sendMessage(message), fallback);

describe('the runtime-message transport', () => {
  it('carries a POST to the handler and brings back the 201 with its body and headers', async () => {
    const response = await messageFetch()(`${origin}/api/v1/shorten`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ original_url: 'https://example.com/ff', custom_code: 'Fox', expire_duration: '24h' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.json();
    expect(body).toMatchObject({
      status: 'success',
      data: { code: 'Fox', original_url: 'https://example.com/ff', short_url: `${openPageBase()}/Fox/` },
    });
    expect(response.headers.get('location')).toBe(new URL(body.data.short_url).href);
    expect(handled.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${origin}/api/v1/shorten`]);
    expect(handled[0]?.headers.get('content-type')).toBe('application/json');
    expect(fallback).not.toHaveBeenCalled();
  });

  it('works as the fetch of shortenVia', async () => {
    const link = await shortenVia(messageFetch(), origin, { url: 'https://example.com/v', expire: '48h' });
    expect(link.shortUrl).toBe(`${openPageBase()}/${link.code}/`);
  });

  it('brings back an error envelope with its status', async () => {
    const response = await messageFetch()(`${origin}/api/v1/shorten`, { method: 'POST', body: '[1, 2]' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      status: 'error',
      message: expect.stringContaining('must be a JSON object'),
    });
  });

  it('carries a GET without a body and brings back the API description', async () => {
    const response = await messageFetch()(`${origin}/api/v1/shorten`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name: 'Linklet', version: 'v1' });
    expect(handled[0]?.method).toBe('GET');
  });

  it('brings back the redirect of a code it created, with its Location', async () => {
    const fetchLike = messageFetch();
    await shortenVia(fetchLike, origin, { url: 'https://example.com/target?q=1', code: 'go', expire: '24h' });
    const response = await fetchLike(`${origin}/go/`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.com/target?q=1');
    expect(await response.text()).toBe('');
  });

  it('brings back a 204 with no body', async () => {
    const response = await messageFetch()(`${origin}/api/v1/shorten`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it.each([
    'https://sho.rt/api/v1/shorten',
    'chrome-extension://other-extension/api/v1/shorten',
    `${origin}evil.example/api/v1/shorten`,
  ])('sends %s to the fallback, not to the background', async (url) => {
    const init = { method: 'POST', body: '{}' };
    const response = await messageFetch()(url, init);
    expect(await response.text()).toBe('from the network');
    expect(fallback).toHaveBeenCalledWith(url, init);
    expect(handled).toEqual([]);
    fallback.mockClear();
  });

  it('fails like a network error when the background does not answer', async () => {
    const fetchLike = createMessageFetch(origin, async () => undefined, fallback);
    await expect(fetchLike(`${origin}/api/v1/shorten`)).rejects.toThrow(TypeError);
  });
});

describe('in a browser whose Request has no body stream (Firefox: `request.body` is undefined)', () => {
  const streamBody = Object.getOwnPropertyDescriptor(Request.prototype, 'body') as PropertyDescriptor;
  beforeEach(() => {
    Object.defineProperty(Request.prototype, 'body', { configurable: true, get: () => undefined });
    return () => {
      Object.defineProperty(Request.prototype, 'body', streamBody);
    };
  });

  it('creates links (it answered 500 to every create)', async () => {
    const link = await shortenVia(messageFetch(), origin, {
      url: 'https://example.com/fox',
      code: 'firefox',
      expire: '24h',
    });
    expect(link).toMatchObject({ code: 'firefox', shortUrl: `${openPageBase()}/firefox/` });
  });

  it('still refuses a body over the limit with 413', async () => {
    const response = await messageFetch()(`${origin}/api/v1/shorten`, {
      method: 'POST',
      body: JSON.stringify({ original_url: `https://example.com/${'a'.repeat(20_000)}` }),
    });
    expect(response.status).toBe(413);
    expect((await response.json()).message).toContain('at most 16384 bytes');
  });
});
