import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';

export interface RawRequest {
  method: string;
  /** Sent as is: raw UTF-8, malformed escapes and all (the socket gets the bytes). */
  path: string;
  /** Sent as given. `Host`, `Connection: close` and `Content-Length` are added unless given. */
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Send the body with `Transfer-Encoding: chunked` (no Content-Length), in 1 KiB chunks. */
  chunked?: boolean;
}

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: string;
}

/** An answer reduced to what two servers must agree on (framing headers left out). */
export type Answer = RawResponse;

// Framing and per-connection headers may differ between two correct answers (chunked vs
// Content-Length: 0), so comparisons leave them out.
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * One HTTP/1.1 request over a bare socket, so a test controls every byte: non-ASCII request
 * targets, bodies without Content-Length, oversized or duplicate headers (fetch and node:http
 * would normalize the path and hide framing). `target` is an origin or a loopback port. Resolves
 * with the parsed response once the server closes the connection.
 */
export function rawRequest(target: string | number, request: RawRequest): Promise<RawResponse> {
  const { hostname, port } = typeof target === 'number' ? { hostname: '127.0.0.1', port: target } : new URL(target);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      // A reset after the whole answer arrived still counts as the answer.
      if (chunks.length > 0) finish();
      else reject(error);
    });
    socket.on('end', () => finish());
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      try {
        resolve(parseResponse(Buffer.concat(chunks), request.method === 'HEAD'));
      } catch (error) {
        reject(error);
      }
    };
    socket.on('connect', () => writeRequest(socket, request, `${hostname}:${port}`));
  });
}

/** `rawRequest`, its answer without the framing headers: for comparing two servers' answers. */
export async function comparableRequest(origin: string, request: RawRequest): Promise<Answer> {
  const { status, headers, body } = await rawRequest(origin, request);
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!FRAMING.has(name)) kept[name] = value;
  return { status, headers: kept, body };
}

function writeRequest(socket: { write(data: string | Uint8Array): unknown }, request: RawRequest, host: string) {
  const given = new Map(Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const chunked = request.chunked === true || /chunked/i.test(given.get('transfer-encoding') ?? '');
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const lines = [`${request.method} ${request.path} HTTP/1.1`];
  if (!given.has('host')) lines.push(`Host: ${host}`);
  if (!given.has('connection')) lines.push('Connection: close');
  for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`${name}: ${value}`);
  if (body !== undefined && chunked && !given.has('transfer-encoding')) lines.push('Transfer-Encoding: chunked');
  if (body !== undefined && !chunked && !given.has('content-length')) lines.push(`Content-Length: ${body.length}`);
  socket.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'));
  if (body === undefined) return;
  if (!chunked) {
    socket.write(body);
    return;
  }
  for (let at = 0; at < body.length; at += 1024) {
    const part = body.subarray(at, at + 1024);
    socket.write(`${part.length.toString(16)}\r\n`);
    socket.write(part);
    socket.write('\r\n');
  }
  socket.write('0\r\n\r\n');
}

function parseResponse(raw: Buffer, head: boolean): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  if (split === -1) throw new Error(`no complete response head in ${JSON.stringify(raw.toString('latin1'))}`);
  const [statusLine = '', ...headerLines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = raw.subarray(split + 4);
  if (head) body = Buffer.alloc(0);
  else if ((headers['transfer-encoding'] ?? '').includes('chunked')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status, headers, body: body.toString('utf8') };
}

/** The body of a chunked answer, its chunks joined (trailers dropped). */
export function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** A stream for a pino logger that parses each JSON line it is given into `logs`. */
export function jsonLinesInto(logs: Array<Record<string, unknown>>): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
}

/** Listens on a free loopback port; resolves with the origin to send requests to. */
export async function listenOnLoopback(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/**
 * A loopback server that answers every request at once and hands back the `IncomingMessage`:
 * for tests of how the server reads requests (repeated, oddly-cased or missing headers), which
 * `fetch` would tidy before sending. `send` writes the header lines as given (add `Host`).
 */
export function createRequestCatcher() {
  let seen: IncomingMessage | undefined;
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    seen = req;
    res.end();
  });
  let port = 0;
  return {
    async start() {
      port = Number(new URL(await listenOnLoopback(server)).port);
    },
    close: () => server.close(),
    send(lines: string[], target = '/'): Promise<IncomingMessage> {
      return new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write([`GET ${target} HTTP/1.1`, 'Connection: close', ...lines, '', ''].join('\r\n'));
        });
        socket.on('data', () => {});
        socket.on('end', () => resolve(seen as IncomingMessage));
        socket.on('error', reject);
      });
    },
  };
}
