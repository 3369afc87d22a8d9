import { createHandler } from '../../core/handler.js';
import { createMemoryLinkStore } from '../../core/memory-link-store.js';

// The bundled backend: extension pages fetch the extension's own origin and this service
// worker answers with the same core handler the server runs.
export default defineBackground({
  type: 'module',
  main() {
    const handle = createHandler({ store: createMemoryLinkStore(), baseUrl: browser.runtime.getURL('/') });
    self.addEventListener('fetch', (event) => {
      const fetchEvent = event as FetchEvent;
      if (new URL(fetchEvent.request.url).origin !== self.location.origin) return;
      fetchEvent.respondWith(handle(fetchEvent.request));
    });
  },
});
