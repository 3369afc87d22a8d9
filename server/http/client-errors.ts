import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorAnswer } from '../../core/http/error-answer.js';
import { type ErrorKind, LinkletError } from '../../core/http/errors.js';
import { compatDialectOf } from '../../core/http/paths.js';
import type { RequestLog } from './request-log.js';

/** Node's own refusals of requests it could not parse or that came too slowly, by error code. */
const REFUSALS: Record<string, { kind: ErrorKind; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { kind: 'request_timeout', message: 'The request took too long to arrive; send it again.' },
  HPE_HEADER_OVERFLOW: { kind: 'headers_too_large', message: 'The request headers are too large.' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    kind: 'payload_too_large',
    message: 'The request body has too large chunk extensions.',
  },
};
const NOT_HTTP = { kind: 'invalid', message: 'The request is not valid HTTP.' } as const;
// The one unreadable request people send by hand (curl sends a query as typed): say what to do.
const NOT_ASCII_TARGET = {
  kind: 'invalid',
  message:
    'The URL has characters outside ASCII that are not percent-encoded; percent-encode them as UTF-8 (e.g. encodeURIComponent) and send it again.',
} as const;

/**
 * Node's `clientError` hook: what Node would answer itself (408 for a request that did not
 * arrive within the timeouts, 431 for oversized headers, 400 for anything that is not HTTP), but
 * written by the core's `errorAnswer` like every other error, then the connection is closed. A
 * refused `HEAD` gets the headers alone, as any answer to HEAD.
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Duplex,
  log: RequestLog,
): void {
  const writable = socket.writable && (socket as Duplex & { bytesWritten?: number }).bytesWritten === 0;
  if (error.code === 'ECONNRESET' || !writable) {
    socket.destroy();
    return;
  }
  const refusal =
    REFUSALS[error.code ?? ''] ??
    (error.code === 'HPE_INVALID_URL' && hasNonAsciiTarget(error.rawPacket) ? NOT_ASCII_TARGET : NOT_HTTP);
  // A peer API's client reads errors in its API's own shape (Shlink's problem documents), so the
  // path is read back from the request line, when Node got that far, to say whose error it is.
  const path = pathOf(error.rawPacket);
  // Its headers were not read, so whether it sent `Origin` is unknown: CORS goes on (an API
  // path's), so a browser's script can read why it was refused.
  const audience = path !== undefined && compatDialectOf(path) !== undefined ? { path, crossOrigin: true } : undefined;
  const answer = errorAnswer(new LinkletError(refusal.kind, refusal.message), audience);
  const trace = log.begin(methodOf(error.rawPacket), '', undefined);
  log.answered(trace, answer.status);
  const body = answer.body ?? '';
  const headers = {
    ...answer.headers,
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': trace.id,
    Connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const statusLine = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n`;
  socket.end(`${statusLine}${head}\r\n${trace.method === 'HEAD' ? '' : body}`, () => socket.destroy());
  // A client that stops reading must not keep the socket open.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** The path of the request Node refused, from its request line (undefined when it has none). */
function pathOf(rawPacket: Buffer | undefined): string | undefined {
  if (rawPacket === undefined) return undefined;
  const target = /^[!-~]{1,16} (\/[^ ?\r\n]*)/.exec(rawPacket.subarray(0, 2048).toString('latin1'))?.[1];
  return target;
}

/**
 * Whether the request line holds a byte outside ASCII: HTTP/1.1 allows none in a request target
 * (llhttp refuses it as an invalid URL), and the method and version are ASCII when they parse.
 */
function hasNonAsciiTarget(rawPacket: Buffer | undefined): boolean {
  if (rawPacket === undefined) return false;
  const head = rawPacket.subarray(0, 8192);
  const lineEnd = head.indexOf(0x0a);
  return (lineEnd === -1 ? head : head.subarray(0, lineEnd)).some((byte) => byte >= 0x80);
}

/** The method of the request Node refused, read from the bytes it had (empty when unknown). */
function methodOf(rawPacket: Buffer | undefined): string {
  if (rawPacket === undefined) return '';
  return /^[A-Z]{1,16}(?= )/.exec(rawPacket.subarray(0, 17).toString('latin1'))?.[0] ?? '';
}
