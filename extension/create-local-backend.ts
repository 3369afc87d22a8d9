import { createHandler, type FetchHandler } from '../core/handler.js';
import type { LinkStore } from '../core/link-store.js';
import { openPageBase } from './local-backend.js';

/**
 * The core handler on the extension's store: the same API a companion server answers. Kept apart
 * from local-backend.ts so pages, which only call the backend, do not bundle the handler.
 */
export function createLocalBackend(store: LinkStore): FetchHandler {
  return createHandler({ store, baseUrl: openPageBase() });
}
