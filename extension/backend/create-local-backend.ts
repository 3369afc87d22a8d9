import { createHandler, type FetchHandler } from '../../core/handler.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { type BackendErrorLog, createBackendErrorLog } from './backend-error-log.js';
import { openPageBase } from './local-backend.js';

/**
 * The core handler on the extension's store: the same API a companion server answers. Kept apart
 * from local-backend.ts so pages, which only call the backend, do not bundle the handler. Its
 * failures go to the background's console under their request ids.
 */
export function createLocalBackend(
  store: LinkStore,
  errorLog: BackendErrorLog = createBackendErrorLog(),
): FetchHandler {
  return errorLog.serve(createHandler({ store, baseUrl: openPageBase(), onError: errorLog.onError }));
}
