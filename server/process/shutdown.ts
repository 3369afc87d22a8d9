import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * Stops accepting connections and lets in-flight requests finish. From then on every answer
 * carries `Connection: close`, so a keep-alive client learns of the shutdown from the answer to
 * a request it has already sent, rather than having that request reset: closing a connection
 * that looks idle while the client's next request is on its way (in the socket buffer, not yet
 * read) resets it. Connections still idle after `idleGraceMs` are closed as such; after
 * `graceMs` the rest are cut, so shutdown always ends.
 */
export function closeGracefully(server: Server, graceMs = 10_000, idleGraceMs = 500): Promise<void> {
  // Before the server's own listener, which may write its answer at once (a cached redirect).
  server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
  return new Promise((resolve, reject) => {
    let idleSweep: NodeJS.Timeout | undefined;
    const idleGrace = setTimeout(() => {
      server.closeIdleConnections();
      idleSweep = setInterval(() => server.closeIdleConnections(), 50);
    }, idleGraceMs);
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    // net.Server's close stops listening and calls back once the last connection has closed; the
    // http.Server override would also close every idle-looking connection at once (see above).
    NetServer.prototype.close.call(server, (error?: Error) => {
      clearTimeout(idleGrace);
      clearInterval(idleSweep);
      clearTimeout(deadline);
      if (error) reject(error);
      else resolve();
    });
  });
}

/**
 * Runs `stop` once on the first SIGTERM or SIGINT (a second signal while stopping is ignored),
 * then exits 0, or 1 if stopping failed.
 */
export function stopOnSignals(stop: (signal: string) => Promise<void>, onFailure: (error: unknown) => void): void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        onFailure(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGINT', () => handle('SIGINT'));
}
