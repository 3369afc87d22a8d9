import type { Server } from 'node:net';
import { rateLimitSubject, trustedProxyCheck } from './client-address.js';

/** The default of `MAX_CONNECTIONS`: open connections one server process accepts in all. */
export const DEFAULT_MAX_CONNECTIONS = 10_000;
/** The default of `MAX_CONNECTIONS_PER_CLIENT`: open connections per client address (IPv6: /64). */
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 256;

export interface ConnectionCapOptions {
  /** Open connections in all; past it Node closes each new one at once. */
  maxConnections: number;
  /** Open connections per peer address (an IPv6 one by its /64); past it a new one is closed at once. */
  perClient: number;
  /** Peers never capped per address: a reverse proxy carries every client's connections. */
  trustedProxies: readonly string[];
}

/**
 * Bounds the sockets a server holds open. Each costs a file descriptor and some memory even while
 * it sends nothing (until `headersTimeout` closes it): one client opening thousands of idle
 * sockets, again and again, would otherwise use up the process's open-file limit, and then no
 * one could connect. A client is counted by its socket's peer address, not `X-Forwarded-For`
 * (nothing has been read yet), so a trusted proxy is left to its own limits.
 */
export function capConnections(server: Server, options: ConnectionCapOptions): void {
  server.maxConnections = options.maxConnections;
  const isProxy = trustedProxyCheck(options.trustedProxies);
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const peer = socket.remoteAddress;
    if (peer === undefined || isProxy(peer)) return;
    const client = rateLimitSubject(peer);
    const count = (open.get(client) ?? 0) + 1;
    if (count > options.perClient) {
      socket.destroy();
      return;
    }
    open.set(client, count);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
  });
}
