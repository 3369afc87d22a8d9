import { once } from 'node:events';
import { createServer } from 'node:net';

/** A free TCP port on loopback, picked by the kernel (for the server processes the scripts start). */
export async function freePort() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  await once(probe, 'close');
  return port;
}
