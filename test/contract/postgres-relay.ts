import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface PostgresRelay {
  port: number;
  /** Cuts every connection and stops listening, as a network failure would. */
  cut(): Promise<void>;
  /**
   * Arms a trap: the next connection that sends a message containing `text` (SQL, or the name of
   * a prepared statement, which every Bind carries) has its socket cut as soon as PostgreSQL
   * answers with ReadyForQuery (so the statement ran, and committed if it was autocommitted),
   * before the answer reaches the client. Resolves once it has fired.
   */
  cutAfterAnswer(text: string): Promise<void>;
}

// ReadyForQuery ('Z', length 5, status idle): PostgreSQL is done with the statement and its commit.
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);

/** A TCP relay in front of PostgreSQL at `target` that a test can cut, whole or one answer. */
export async function startPostgresRelay(target: URL, port = 0): Promise<PostgresRelay> {
  const sockets = new Set<Socket>();
  let trap: { text: Buffer; fired: () => void } | undefined;
  const relay: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    let trapped: (() => void) | undefined;
    client.on('data', (chunk: Buffer) => {
      if (trap && chunk.includes(trap.text)) {
        trapped = trap.fired;
        trap = undefined;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (trapped && chunk.includes(READY_FOR_QUERY)) {
        client.destroy();
        upstream.destroy();
        trapped();
        return;
      }
      client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  relay.listen(port, '127.0.0.1');
  await once(relay, 'listening');
  return {
    port: (relay.address() as { port: number }).port,
    async cut() {
      for (const socket of sockets) socket.destroy();
      relay.close();
      await once(relay, 'close');
    },
    cutAfterAnswer(text) {
      return new Promise((fired) => {
        trap = { text: Buffer.from(text), fired };
      });
    },
  };
}

/** `url` with its host and port replaced by the relay's. */
export function throughRelay(url: string, relay: PostgresRelay): string {
  const routed = new URL(url);
  routed.hostname = '127.0.0.1';
  routed.port = String(relay.port);
  return routed.toString();
}
