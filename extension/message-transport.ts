import type { FetchHandler } from '../core/handler.js';
import type { FetchLike } from './api-client.js';
import type { LinkletMessage, SerializedRequest, SerializedResponse } from './messages.js';

type SendMessage = (message: LinkletMessage) => Promise<unknown>;

/**
 * A fetch that carries requests for `origin` to the background as runtime messages, for builds
 * without a service worker to intercept them (Firefox). Other URLs go to `fallback`.
 */
export function createMessageFetch(origin: string, sendMessage: SendMessage, fallback: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    if (!input.startsWith(`${origin}/`)) return fallback(input, init);
    const request = new Request(input, init);
    const serialized: SerializedRequest = {
      url: request.url,
      method: request.method,
      headers: [...request.headers],
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text(),
    };
    const reply = (await sendMessage({ type: 'linklet:fetch', request: serialized })) as SerializedResponse | undefined;
    if (!reply) throw new TypeError('The extension background did not answer; reload the extension.');
    const nullBody = reply.status === 204 || reply.status === 205 || reply.status === 304;
    return new Response(nullBody ? null : reply.body, { status: reply.status, headers: reply.headers });
  };
}

/** The background's side: runs a carried request through the handler and flattens the answer. */
export async function answerFetchMessage(
  request: SerializedRequest,
  handle: FetchHandler,
): Promise<SerializedResponse> {
  const response = await handle(
    new Request(request.url, { method: request.method, headers: request.headers, body: request.body }),
  );
  return { status: response.status, headers: [...response.headers], body: await response.text() };
}
