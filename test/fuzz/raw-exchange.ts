import { connect } from 'node:net';
import { dechunk } from '../raw-http.js';

/** A response read off the wire, every byte accounted for. */
export interface WireResponse {
  status: number;
  /** Lower-case names, each with every value it was sent with (a repeated header has several). */
  headers: Map<string, string[]>;
  /** The body as framed by Content-Length or chunked encoding (or up to the close). */
  body: Buffer;
  /** Bytes after the head of the answer to a HEAD request: a HEAD answer has none. */
  afterHead: number;
}

/**
 * Sends `bytes` (a whole HTTP/1.1 request with `Connection: close`, exactly as the fuzzer wrote
 * it) over a bare socket and reads the answer until the server closes the connection. Interim 1xx
 * answers (`100 Continue`) are skipped. Resolves with undefined when the server closed without
 * answering, or did not answer within `timeoutMs`.
 */
export function exchangeRaw(
  port: number,
  bytes: Buffer,
  head: boolean,
  timeoutMs = 10_000,
): Promise<WireResponse | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseWireResponse(Buffer.concat(chunks), head));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may reset a connection it answered while the request was still being sent.
    socket.on('error', finish);
    socket.on('close', finish);
    // Written, not ended: Node's server drops the pending answer of a client that half-closes.
    socket.on('connect', () => socket.write(bytes));
  });
}

/** Parses the final answer in `raw`; undefined when there is none. */
export function parseWireResponse(raw: Buffer, head: boolean): WireResponse | undefined {
  let rest = raw;
  for (;;) {
    const split = rest.indexOf('\r\n\r\n');
    if (split === -1) return undefined;
    const [statusLine = '', ...lines] = rest.subarray(0, split).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!Number.isInteger(status)) return undefined;
    const after = rest.subarray(split + 4);
    if (status >= 100 && status < 200) {
      rest = after;
      continue;
    }
    const headers = new Map<string, string[]>();
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
    }
    if (head) return { status, headers, body: Buffer.alloc(0), afterHead: after.length };
    const length = headers.get('content-length')?.[0];
    const chunked = (headers.get('transfer-encoding')?.[0] ?? '').includes('chunked');
    const body = chunked ? dechunk(after) : length !== undefined ? after.subarray(0, Number(length)) : after;
    return { status, headers, body, afterHead: after.length };
  }
}
