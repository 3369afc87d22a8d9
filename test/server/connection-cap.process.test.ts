import { once } from 'node:events';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { useServerProcesses } from './use-server-processes.js';

// One client opening sockets and sending nothing holds a file descriptor and memory per socket
// until HEADERS_TIMEOUT_MS closes it; kept up, that uses up the process's open files and no one
// else can connect. The server closes a client's sockets past MAX_CONNECTIONS_PER_CLIENT at once.
const servers = useServerProcesses('connection-cap');
const opened: Socket[] = [];
afterEach(() => {
  for (const socket of opened.splice(0)) socket.destroy();
});

/** `count` idle sockets from `localAddress`; resolves once each is connected or closed, with a count of those closed. */
async function idleSockets(port: number, count: number, localAddress: string) {
  const state = { closed: 0 };
  const settled: Array<Promise<unknown>> = [];
  for (let i = 0; i < count; i++) {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    socket.on('error', () => {});
    socket.on('close', () => {
      state.closed += 1;
    });
    socket.resume(); // so a close by the server is seen
    opened.push(socket);
    settled.push(Promise.race([once(socket, 'connect'), once(socket, 'close')]));
  }
  await Promise.all(settled);
  return state;
}

/** GET `path` from `localAddress`, a connection of its own. */
const getFrom = (port: number, path: string, localAddress: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path, localAddress, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });

/** POST `body` as JSON to `path` from `localAddress`, on a connection of its own (closed after). */
const postFrom = (port: number, path: string, localAddress: string, body: object) =>
  new Promise<number>((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path, method: 'POST', localAddress, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });

describe('open connections', () => {
  it("closes one client's idle sockets past its cap at once, and another client is still answered", async () => {
    const server = await servers.start({
      DATABASE_URL: 'sqlite::memory:',
      MAX_CONNECTIONS_PER_CLIENT: '50',
      // Long enough that nothing but the cap closes an idle socket during the test.
      HEADERS_TIMEOUT_MS: '120000',
      REQUEST_TIMEOUT_MS: '120000',
    });
    // Made from an address of its own, on a connection closed after it (fetch would keep one
    // open from 127.0.0.1, which counts against the flooding client's cap on some Node lines).
    expect(
      await postFrom(server.port, '/api/v1/shorten', '127.0.0.3', {
        original_url: 'https://example.com/',
        custom_code: 'there',
      }),
    ).toBe(201);

    const flood = await idleSockets(server.port, 300, '127.0.0.1');
    // Every socket past the 50th is closed by the server (the wait is bounded by the count).
    for (let waits = 0; waits < 200 && flood.closed < 250; waits++) await new Promise((r) => setTimeout(r, 50));
    expect(flood.closed).toBe(250);
    expect(await getFrom(server.port, '/there', '127.0.0.2')).toBe(302);
    // The flooding client's own request waits for one of its sockets to go: refused for now.
    await expect(getFrom(server.port, '/there', '127.0.0.1')).rejects.toThrow();
    for (const socket of opened.splice(0)) socket.destroy();
    // Its sockets closed, it is answered again.
    let status = 0;
    for (let tries = 0; tries < 50 && status !== 302; tries++) {
      status = await getFrom(server.port, '/there', '127.0.0.1').catch(() => 0);
      if (status !== 302) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(302);
  }, 60_000);
});
