import { once } from 'node:events';
import { request as httpRequest, type Server } from 'node:http';
import { Writable } from 'node:stream';

/** An answer reduced to what two servers must agree on (framing headers left out). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

// Framing and per-connection headers may differ between two correct answers (chunked vs
// Content-Length: 0), so comparisons leave them out.
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** A raw HTTP/1.1 request (fetch would normalize the path and hide framing). */
export function rawRequest(
  origin: string,
  {
    method,
    path,
    headers = {},
    body,
  }: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (!FRAMING.has(name)) kept[name] = String(value);
        resolve({ status: res.statusCode ?? 0, headers: kept, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
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
