import { createHandler } from '../../core/handler.js';
import { createMemoryLinkStore } from '../../core/memory-link-store.js';

/** The service worker's fetch event; the extension is typed against DOM, which lacks it. */
interface FetchEvent extends Event {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}

// The bundled backend: extension pages fetch the extension's own origin and this service
// worker answers with the same core handler the server runs. (IndexedDB store, popup and sync
// come with the extension issue.)
export default defineBackground({
  type: 'module',
  main() {
    const handle = createHandler({ store: createMemoryLinkStore(), baseUrl: browser.runtime.getURL('/') });
    self.addEventListener('fetch', (event) => {
      const { request, respondWith } = event as FetchEvent;
      if (new URL(request.url).origin !== self.location.origin) return;
      respondWith.call(event, handle(request));
    });
  },
});
