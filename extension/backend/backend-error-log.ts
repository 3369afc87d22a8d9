import type { FailureReport, FetchHandler } from '../../core/handler.js';

/** A request id a page sent that is safe to echo and log; anything else gets a fresh one. */
const REQUEST_ID = /^[\w.-]{1,64}$/;

export type LogError = (message: string, error: unknown) => void;

/**
 * The bundled backend's log: the server logs each failure under its request id, and the extension
 * must too, or a 500 in the background says nothing anywhere. Its console is the only log an
 * extension has (about:debugging → Inspect on Firefox, the service worker's DevTools on Chromium).
 */
export interface BackendErrorLog {
  /** The handler's `onError`: logs the failure with the id `serve` gave its request. */
  onError(error: unknown, report: FailureReport): void;
  /** Gives every request an id (its well-formed `X-Request-Id`, else a fresh one) and answers it in `X-Request-Id`. */
  serve(handler: FetchHandler): FetchHandler;
}

export function createBackendErrorLog(
  log: LogError = (message, error) => console.error(message, error),
): BackendErrorLog {
  return {
    onError(error, { request, requestId }) {
      const id = requestId ?? 'unknown';
      const { pathname } = new URL(request.url);
      log(`Linklet backend: ${request.method} ${pathname} failed (request ${id}):`, error);
    },
    serve(handler) {
      return async (request) => {
        const given = request.headers.get('x-request-id');
        const id = given !== null && REQUEST_ID.test(given) ? given : crypto.randomUUID();
        // The id travels to the handler's `onError` in its env, as on the server.
        const response = await handler(request, { requestId: id });
        response.headers.set('X-Request-Id', id);
        return response;
      };
    },
  };
}
