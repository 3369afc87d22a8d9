import { isIPv6 } from 'node:net';
import { loadConfig } from './config.js';

/**
 * Where this machine reaches its own server's `GET /health`, from `PORT` and `HOST` as the server
 * reads them: a server listening on every address (`0.0.0.0`, `::`) answers on loopback.
 */
export function healthUrlOf(env: Record<string, string | undefined>): string {
  const { host, port } = loadConfig(env);
  const target = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${isIPv6(target) ? `[${target}]` : target}:${port}/health`;
}
