import type { Context, MiddlewareHandler } from 'hono';
import { LinkletError } from '../errors.js';

/** Most bytes of an oversized body read (and dropped) before the 413 goes out; see below. */
export const DRAIN_BEFORE_413_BYTES = 4 * 1024 * 1024;

/**
 * Middleware that answers 413 for a body over `maxBytes` (imports take more than creates). A
 * declared length is judged from the header alone, as Hono's `bodyLimit` does, but without
 * touching `request.body`: an adapter may make that stream only when asked, and it is not needed.
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler {
  const tooLarge = (): never => {
    throw new LinkletError('payload_too_large', `The request body must be at most ${maxBytes} bytes.`);
  };
  const limitChunkedBody = limitStreamedBody(maxBytes, tooLarge);
  return async (c: Context, next: () => Promise<void>) => {
    const declared = c.req.header('content-length');
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return limitChunkedBody(c, next);
    const declaredBytes = Number.parseInt(declared, 10);
    if (declaredBytes > maxBytes) {
      await dropDeclaredBody(c.req.raw, declaredBytes); // so the 413 is not lost to a reset
      tooLarge();
    }
    await next();
  };
}

/** Each buffered copy's request as it arrived: what a route keyed per request must look up. */
const arrivals = new WeakMap<Request, Request>();

/** The request as it reached the handler, before `limitStreamedBody` swapped in a buffered copy. */
export function arrivedAs(request: Request): Request {
  return arrivals.get(request) ?? request;
}

/**
 * Middleware for a body of unknown length (chunked): reads it up to `maxBytes` and hands the
 * handler a buffered copy, or calls `tooLarge` (which throws the 413) once it grows past that.
 *
 * Unlike Hono's `bodyLimit`, the rest of an oversized body is read and dropped first (up to
 * `DRAIN_BEFORE_413_BYTES`): a server that answers and closes the connection while the client is
 * still sending resets it, and the reset can destroy the 413 before the client reads it.
 */
function limitStreamedBody(maxBytes: number, tooLarge: () => never) {
  return async (c: Context, next: () => Promise<void>): Promise<void> => {
    const body = c.req.raw.body;
    if (body === null) return next();
    // Firefox has no `Request.body` (undefined, not null): nothing to stream, so measure a copy.
    if (body === undefined) {
      if ((await c.req.raw.clone().arrayBuffer()).byteLength > maxBytes) tooLarge();
      return next();
    }
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await drain(reader, DRAIN_BEFORE_413_BYTES - size);
        tooLarge();
      }
      chunks.push(value);
    }
    const buffer = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      buffer.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const buffered = new Request(c.req.raw, { body: buffer });
    arrivals.set(buffered, arrivedAs(c.req.raw));
    c.req.raw = buffered;
    await next();
  };
}

/**
 * Before a 413 for a declared `Content-Length`: reads and drops the body when it is no longer
 * than `DRAIN_BEFORE_413_BYTES` (see `limitStreamedBody`); a larger one is left unread.
 */
async function dropDeclaredBody(request: Request, declaredBytes: number): Promise<void> {
  if (declaredBytes > DRAIN_BEFORE_413_BYTES || !request.body) return; // no stream (Firefox): nothing to drain
  await drain(request.body.getReader(), declaredBytes);
}

/** Reads and drops up to `limit` more bytes, then lets go of the stream. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<void> {
  try {
    for (let dropped = 0; dropped < limit; ) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing left to drain.
  }
}
