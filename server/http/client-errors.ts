import type { Duplex } from 'node:stream';
import { toErrorEnvelope } from '../../core/envelopes.js';
import { SECURITY_HEADERS } from '../../core/security-headers.js';
import type { Logger } from '../process/logger.js';

/** Node's own answers to requests it could not parse or that came too slowly, by error code. */
const ANSWERS: Record<string, { status: number; reason: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    message: 'The request took too long to arrive; send it again.',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    message: 'The request headers are too large.',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    reason: 'Content Too Large',
    message: 'The request body has too large chunk extensions.',
  },
};
const BAD_REQUEST = { status: 400, reason: 'Bad Request', message: 'The request is not valid HTTP.' };

/**
 * Node's `clientError` hook: what Node would answer itself (408 for a request that did not
 * arrive within the timeouts, 431 for oversized headers, 400 for anything that is not HTTP), but
 * with the error envelope and the headers every response carries, then the connection is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, logger: Logger): void {
  const writable = socket.writable && (socket as Duplex & { bytesWritten?: number }).bytesWritten === 0;
  if (error.code === 'ECONNRESET' || !writable) {
    socket.destroy();
    return;
  }
  const answer = ANSWERS[error.code ?? ''] ?? BAD_REQUEST;
  logger.info({ code: error.code, status: answer.status }, 'unreadable request');
  const body = JSON.stringify(toErrorEnvelope(answer.message));
  const headers = {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    Connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${answer.status} ${answer.reason}\r\n${head}\r\n${body}`, () => socket.destroy());
  // A client that stops reading must not keep the socket open.
  setTimeout(() => socket.destroy(), 1000).unref();
}
