import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { FetchHandler } from '../../core/handler.js';
import { LinkletError } from '../../core/http/errors.js';
import { createRequestLog, failureMessageOf } from '../../server/http/request-log.js';
import { createWebAdapter } from '../../server/http/web-adapter.js';
import { jsonLinesInto, listenOnLoopback, rawRequest } from '../raw-http.js';

// The web adapter's error handler sees what never reached the core's own (`app.onError`): a
// request Node could not read, or a handler that rejected. Its log line must say which.
let server: Server | undefined;
afterEach(() => server?.close());

async function serve(handler: FetchHandler) {
  const logs: Array<Record<string, unknown>> = [];
  server = createServer(createWebAdapter(handler, createRequestLog(pino({ level: 'info' }, jsonLinesInto(logs)))));
  return { origin: await listenOnLoopback(server), logs };
}

/** Waits for the first failure line (level warn or above). */
async function failureIn(logs: Array<Record<string, unknown>>) {
  for (let tries = 0; tries < 200; tries++) {
    const line = logs.find((entry) => (entry.level as number) >= 40);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no failure logged; lines: ${JSON.stringify(logs)}`);
}

describe('the web adapter logs a failure by its kind', () => {
  it('a request whose body stream errors: about the request, not the store', async () => {
    const { origin, logs } = await serve(async (request) => new Response(await request.text()));
    const { port } = new URL(origin);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    socket.write(`POST /api/v1/shorten HTTP/1.1\r\nHost: sho.rt\r\nContent-Length: 1000\r\n\r\n{"original_url":`);
    // The client goes away mid-body: the body's stream errors under the handler.
    setTimeout(() => socket.destroy(), 50);
    const line = await failureIn(logs);
    expect(line.msg).toBe('request failed');
    expect(line.level).toBe(50);
    expect(JSON.stringify(logs)).not.toContain('store unavailable');
  });

  it('a request Node cannot read: a 400 envelope, logged as unreadable at warn', async () => {
    const { origin, logs } = await serve(async () => new Response('never called'));
    const answer = await rawRequest(origin, { method: 'GET', path: '/abc', headers: { Host: 'sho rt' } });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'error', message: 'The request could not be read.' });
    const line = await failureIn(logs);
    expect(line).toMatchObject({ level: 40, msg: 'request unreadable' });
  });

  it('the store not answering is still "store unavailable", at warn', async () => {
    const { origin, logs } = await serve(async () => {
      throw new LinkletError('unavailable', 'The link store is not answering.');
    });
    const answer = await rawRequest(origin, { method: 'GET', path: '/abc' });
    expect(answer.status).toBe(503);
    expect(await failureIn(logs)).toMatchObject({ level: 40, msg: 'store unavailable' });
  });
});

describe('failureMessageOf', () => {
  it.each([
    [new LinkletError('unavailable', 'down'), 'store unavailable'],
    [new LinkletError('invalid', 'The request could not be read.'), 'request unreadable'],
    [new LinkletError('internal', 'boom'), 'request failed'],
    [new TypeError('terminated'), 'request failed'],
    ['a string', 'request failed'],
  ])('%s: %s', (error, message) => {
    expect(failureMessageOf(error)).toBe(message);
  });
});
