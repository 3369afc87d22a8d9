import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the lying server does with one request: answer, or hold the connection. */
export type Behaviour = (request: { body: Record<string, unknown> }, response: ServerResponse) => void;

export interface LyingServer {
  /** `http://127.0.0.1:<port>`, the base URL a user would enter in the options. */
  url: string;
  /** What the next requests get; every request is answered by the latest behaviour. */
  behave(behaviour: Behaviour): void;
  /** Requests received (their JSON bodies), in order. */
  received: Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback that answers as a hostile or broken companion server would:
 * whatever envelope the test writes, or nothing at all. Connections it holds are destroyed on
 * close, so a test that times out does not keep the process alive.
 */
export async function startLyingServer(): Promise<LyingServer> {
  let behaviour: Behaviour = (_, response) => response.end();
  const received: Record<string, unknown>[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      received.push(body);
      behaviour({ body }, response);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    behave: (next) => {
      behaviour = next;
    },
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A 201 v1 success envelope whose `data` is the link as sent, with `lie` laid over it. */
export function succeedWith(
  lie: (sent: Record<string, unknown>, base: string) => Record<string, unknown>,
  base: string,
): Behaviour {
  return ({ body }, response) => {
    const code = (body.custom_code as string | undefined) ?? 'gen2345';
    const data = {
      short_url: `${base}/${code}/`,
      original_url: body.original_url,
      code,
      expiration_date: '2026-12-01T00:00:00.000Z',
      ...lie(body, base),
    };
    response.writeHead(201, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ status: 'success', message: 'The URL was shortened.', data }));
  };
}

/** Accepts the request and never answers. */
export const neverAnswer: Behaviour = () => undefined;

/** Sends the status line and headers of a 201, then never sends the body. */
export const stallBody: Behaviour = (_, response) => {
  response.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
  response.write('{"status":"success",');
};
