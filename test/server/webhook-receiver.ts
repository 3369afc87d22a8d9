import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver took: its Standard Webhooks headers and its body. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  headers: IncomingHttpHeaders;
  /** The status it was answered with. */
  status: number;
}

/**
 * A webhook receiver on this machine (node:http on loopback): it keeps every request, answers
 * each with what `answer` says (204 by default), and verifies a request's signature with the
 * `standardwebhooks` package, as a receiver would.
 */
export async function startReceiver() {
  const received: Received[] = [];
  let answer: (id: string) => number = () => 204;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const header = (name: string) => String(request.headers[name] ?? '');
      const id = header('webhook-id');
      const status = answer(id);
      received.push({
        id,
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature'),
        body: Buffer.concat(chunks).toString('utf8'),
        headers: request.headers,
        status,
      });
      response.writeHead(status).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** How the next requests are answered, by their `webhook-id`. */
    answerWith(next: (id: string) => number) {
      answer = next;
    },
    /**
     * The parsed body, after checking its signature with `secret` as docs/api.md's receiver does
     * (the request's headers as node:http gives them); throws when it does not verify.
     */
    verified(one: Received, secret: string) {
      return new Webhook(secret).verify(one.body, one.headers as Record<string, string>) as {
        type: string;
        timestamp: string;
        data: Record<string, unknown>;
      };
    },
    /** Waits until `check` holds on what was received (polling), failing after `ms`. */
    async until(check: (all: Received[]) => boolean, ms = 20_000) {
      const started = Date.now();
      while (!check(received)) {
        if (Date.now() - started > ms)
          throw new Error(`not received within ${ms} ms; got ${JSON.stringify(received.map((r) => r.body))}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
