import { SECURITY_HEADERS } from './security-headers.js';

/**
 * A response as plain data. The fetch handler turns it into a `Response`; the server's Node fast
 * paths write it straight to the socket. Both send exactly this, so what Linklet answers is
 * decided in the core and nowhere else.
 */
export interface Answer {
  status: number;
  /** Header names as sent, the security headers included; `Content-Length` is left to the adapter. */
  headers: Record<string, string>;
  /** The body of a GET (a HEAD sends none); null when there is none. */
  body: string | null;
}

/**
 * What an actual (not preflight) API response carries when the request came with `Origin`, so
 * any site's script can read it. A request without `Origin` is not a CORS request (curl, a
 * server, a same-origin page's `GET`), and the headers would tell it nothing.
 */
export const API_CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Location, Retry-After',
});

/** A JSON answer with the security headers. */
export function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): Answer {
  return {
    status,
    headers: { 'Content-Type': 'application/json', ...headers, ...SECURITY_HEADERS },
    body: JSON.stringify(value),
  };
}
