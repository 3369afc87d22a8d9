import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../scripts/server-process.mjs';

// Every answer the server process writes, Node's early refusals and the rate limiter's included,
// comes from the core's one `errorAnswer`: the envelope, the security headers, and no body for HEAD.

/** Sends raw bytes and resolves with everything the server sent until it closed the connection. */
async function rawExchange(origin: string, bytes: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  socket.end(bytes);
  await once(socket, 'close');
  return received;
}

/** Splits a raw HTTP/1.1 answer into status, lower-cased headers and body. */
function parse(raw: string) {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(split + 4) };
}

const expectSecurityHeaders = (headers: Record<string, string>) => {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['content-security-policy']).toContain("default-src 'none'");
};

let dir: string;
let server: RunningServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linklet-answers-'));
  server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'links.db')}`, RATE_LIMIT_PER_MINUTE: '30' });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('answers Node refuses or the rate limiter sends', () => {
  it('answers a request without Host with the JSON envelope and the security headers', async () => {
    const answer = parse(await rawExchange(server.origin, 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json');
    expectSecurityHeaders(answer.headers);
    expect(JSON.parse(answer.body)).toEqual({ status: 'error', message: expect.stringMatching(/could not be read/) });
  });

  it.each([
    ['raw non-ASCII bytes in the path', Buffer.from('HEAD /\xff\x01 HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'), 400],
    ['headers over the size limit', `HEAD /x HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('answers a HEAD refused for %s with headers alone', async (_name, bytes, status) => {
    const raw = await rawExchange(server.origin, bytes);
    const answer = parse(raw);
    expect(answer.status).toBe(status);
    expectSecurityHeaders(answer.headers);
    expect(answer.body).toBe('');
  });

  it('answers the same refusal of a GET with the envelope', async () => {
    const answer = parse(
      await rawExchange(server.origin, `GET /x HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({ status: 'error', message: 'The request headers are too large.' });
  });

  it('lets scripts on any site read a 429 and its Retry-After', async () => {
    let answer: Response | undefined;
    for (let i = 0; i < 40 && answer?.status !== 429; i++) {
      answer = await fetch(`${server.origin}/api/v1/shorten`, { headers: { Origin: 'https://elsewhere.example' } });
    }
    expect(answer?.status).toBe(429);
    expect(answer?.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer?.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    expect(Number(answer?.headers.get('retry-after'))).toBeGreaterThan(0);
    const headers: Record<string, string> = {};
    answer?.headers.forEach((value, name) => {
      headers[name] = value;
    });
    expectSecurityHeaders(headers);
    expect(await answer?.json()).toEqual({ status: 'error', message: expect.stringMatching(/Too many requests/) });
  });
});
