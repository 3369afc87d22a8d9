import { browser } from 'wxt/browser';
import type { FetchLike } from '../api-client.js';
import { localBase } from '../local-backend.js';
import { createMessageFetch } from '../message-transport.js';

/**
 * How an extension page reaches the bundled backend: on Chromium a plain `fetch` of the extension
 * origin, which the service worker answers; on Firefox, whose MV2 background cannot intercept
 * fetches, the same request carried as a runtime message.
 */
export function pageFetch(): FetchLike {
  if (!import.meta.env.FIREFOX) return (input, init) => fetch(input, init);
  return createMessageFetch(localBase(), (message) => browser.runtime.sendMessage(message));
}
