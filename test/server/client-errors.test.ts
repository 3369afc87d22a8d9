import { createServer, type Server } from 'node:http';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { answerClientError } from '../../server/http/client-errors.js';
import { createRequestLog } from '../../server/http/request-log.js';
import { listenOnLoopback, rawRequest } from '../raw-http.js';

// Node refuses a request target holding raw non-ASCII bytes before any handler sees it; the
// answer must say what to do about it, as every error message does.
let server: Server | undefined;
afterEach(() => server?.close());

async function serve() {
  server = createServer((_, response) => response.end('ok'));
  const log = createRequestLog(pino({ level: 'silent' }));
  server.on('clientError', (error: Error, socket) => answerClientError(error, socket, log));
  return listenOnLoopback(server);
}

const NOT_ASCII =
  /^The URL has characters outside ASCII that are not percent-encoded; percent-encode them as UTF-8 \(e\.g\. encodeURIComponent\) and send it again\.$/;

describe("Node's refusal of a request it cannot read", () => {
  it.each([
    ['a raw UTF-8 query', '/api/v1/links?tag=보고서'],
    ['a raw UTF-8 path', '/한글'],
    ['a raw Latin-1 byte', '/a\u00FFb'],
  ])('%s: a 400 that says to percent-encode', async (_, path) => {
    const origin = await serve();
    const answer = await rawRequest(origin, { method: 'GET', path });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).message).toMatch(NOT_ASCII);
  });

  it('any other malformed request keeps the plain message', async () => {
    const origin = await serve();
    const answer = await rawRequest(origin, { method: 'GET', path: '/a\u007Fb' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).message).toBe('The request is not valid HTTP.');
  });
});
