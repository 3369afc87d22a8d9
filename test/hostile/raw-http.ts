import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  /** Sent as is: raw UTF-8, malformed escapes and all (the socket gets the bytes). */
  path: string;
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

/**
 * One HTTP/1.1 request over a bare socket (`Connection: close`), so a test controls every byte:
 * non-ASCII request targets, bodies without Content-Length, oversized headers. Resolves with the
 * parsed response once the server closes the connection.
 */
export function rawRequest(port: number, request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
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
    socket.on('connect', () => {
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      const lines = [`${request.method} ${request.path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
      for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`${name}: ${value}`);
      if (body !== undefined && !request.chunked) lines.push(`Content-Length: ${body.length}`);
      if (body !== undefined && request.chunked) lines.push('Transfer-Encoding: chunked');
      socket.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'));
      if (body === undefined) return;
      if (!request.chunked) {
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
    });
  });
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

function dechunk(data: Buffer): Buffer {
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
