import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, type FetchHandler } from '../../core/handler.js';
import { CONTENT_SECURITY_POLICY, ERROR_PAGE_POLICY } from '../../core/http/security-headers.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { freePort, type RunningServer, startServer } from '../../scripts/server-process.mjs';
import { type RawResponse, rawRequest } from '../raw-http.js';
import {
  BASE_URL,
  CASES,
  type CaseRequest,
  type Expectation,
  type HostileCase,
  loopbackCases,
  SEEDS,
} from './cases.js';

type Send = (request: CaseRequest) => Promise<RawResponse>;

/** Sends a case to the core handler as a web Request, the way the extension's worker gets one. */
function viaHandler(handler: FetchHandler, base: string): Send {
  return async (request) => {
    const bytes = request.body === undefined ? undefined : new TextEncoder().encode(request.body);
    const headers = new Headers(request.headers);
    let body: BodyInit | undefined = bytes;
    if (bytes !== undefined && request.chunked) {
      let offset = 0;
      body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(offset, offset + 1024));
          offset += 1024;
        },
      });
    } else if (bytes !== undefined) {
      headers.set('content-length', String(bytes.length)); // as a client over HTTP declares it
    }
    const response = await handler(
      new Request(`${base}${request.path}`, { method: request.method, headers, body, duplex: 'half' } as RequestInit),
    );
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      answerHeaders[name] = value;
    });
    return { status: response.status, headers: answerHeaders, body: await response.text() };
  };
}

/** Sends a case over a bare socket to the server process. */
const viaHttp =
  (port: number): Send =>
  (request) =>
    rawRequest(port, request);

const STACK_OR_SQL = /\bat [\w.<>]+ \(|\.(?:ts|js):\d+:\d+|SQLITE|sqlite|SELECT |INSERT |ON CONFLICT|pg_|Error:/;

/** Checks one answer against its expectation and the rules every answer obeys. */
function expectAnswer(answer: RawResponse, expected: Expectation): void {
  const context = `${answer.status} ${JSON.stringify(answer.headers)}\n${answer.body.slice(0, 500)}`;
  expect(answer.status, context).toBe(expected.status);
  expect(answer.status, 'never a 500').not.toBe(500);
  // The security headers, on every answer of every kind (a bodyless redirect: the referrer policy alone).
  const redirect = answer.status >= 300 && answer.status < 400;
  expect(answer.headers['x-content-type-options'], context).toBe(redirect ? undefined : 'nosniff');
  expect(answer.headers['referrer-policy'], context).toBe('no-referrer');
  // The error page's policy allows its stylesheet and icon; any other body loads nothing.
  const policy = answer.headers['content-type']?.startsWith('text/html') ? ERROR_PAGE_POLICY : CONTENT_SECURITY_POLICY;
  expect(answer.headers['content-security-policy'], context).toBe(redirect ? undefined : policy);
  expect(answer.body, 'no stack trace or SQL').not.toMatch(STACK_OR_SQL);
  if (expected.error) {
    expect(answer.headers['content-type'], context).toMatch(/^application\/json/);
    const envelope = JSON.parse(answer.body);
    expect(Object.keys(envelope).sort(), context).toEqual(['message', 'status']);
    expect(envelope.status).toBe('error');
    expect(envelope.message).toMatch(expected.error);
  }
  if (expected.data) {
    const envelope = JSON.parse(answer.body);
    expect(Object.keys(envelope).sort(), context).toEqual(['data', 'message', 'status']);
    expect(envelope.status).toBe('success');
    expect(envelope.data).toMatchObject(expected.data);
  }
  if (expected.html) {
    expect(answer.body).toMatch(/^<!doctype html>/);
    expect(answer.body).not.toMatch(/<script/i);
  }
  if (expected.empty) expect(answer.body).toBe('');
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    if (value === null) expect(answer.headers[name], name).toBeUndefined();
    else if (typeof value === 'string') expect(answer.headers[name], name).toBe(value);
    else expect(answer.headers[name], name).toMatch(value);
  }
  // A Location is always ASCII (punycode host, percent-encoded path).
  if (answer.headers.location !== undefined) expect(answer.headers.location).toMatch(/^[\x21-\x7e]+$/);
}

/** Registers the table's cases as tests against `send` (seeding the links the cases read). */
function runTable(cases: HostileCase[], send: () => Send, transport: 'handler' | 'http'): void {
  for (const group of [...new Set(cases.map((c) => c.group))]) {
    describe(group, () => {
      for (const hostile of cases.filter((c) => c.group === group)) {
        if (hostile.httpOnly && transport === 'handler') continue;
        it(hostile.name, async () => {
          const expected = transport === 'http' ? (hostile.overHttp ?? hostile.expect) : hostile.expect;
          expectAnswer(await send()(hostile.request), expected);
        });
      }
    });
  }
}

async function seed(send: Send): Promise<void> {
  for (const { code, url } of SEEDS) {
    const answer = await send({
      method: 'POST',
      path: '/api/v1/shorten',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ original_url: url, custom_code: code }),
    });
    expect(answer.status, answer.body).toBe(201);
  }
}

describe('hostile input through the core handler', () => {
  const handler = createHandler({ store: createMemoryLinkStore(), baseUrl: BASE_URL });
  const send = viaHandler(handler, BASE_URL);
  beforeAll(() => seed(send));
  runTable(CASES, () => send, 'handler');

  describe('on localhost', () => {
    const port = 8080;
    const local = viaHandler(
      createHandler({ store: createMemoryLinkStore(), baseUrl: `http://localhost:${port}` }),
      `http://localhost:${port}`,
    );
    runTable(loopbackCases(port), () => local, 'handler');
  });

  it('left no property on Object.prototype', () => {
    const probe = {} as Record<string, unknown>;
    expect(probe.custom_code).toBeUndefined();
    expect(probe.original_url).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});

// The localhost cases name the port the server listens on, so it is chosen before they are made.
const localPort = await freePort();

describe('hostile input over real HTTP to the server process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'linklet-hostile-'));
  let server: RunningServer;
  let local: RunningServer;
  beforeAll(async () => {
    [server, local] = await Promise.all([
      startServer({ DATABASE_URL: `sqlite:${join(dir, 'links.db')}`, BASE_URL }),
      startServer({ DATABASE_URL: `sqlite:${join(dir, 'local.db')}`, PORT: String(localPort) }),
    ]);
    await seed(viaHttp(Number(new URL(server.origin).port)));
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), local?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  runTable(CASES, () => viaHttp(Number(new URL(server.origin).port)), 'http');

  describe('on localhost', () => {
    runTable(loopbackCases(localPort), () => viaHttp(localPort), 'http');
  });

  it('is still up and healthy after all of it', async () => {
    expect((await fetch(`${server.origin}/health`)).status).toBe(200);
    expect(server.process.exitCode).toBeNull();
  });

  it('never wrote a request body (or any part of one) to its log', async () => {
    await server.waitForLogs((entry) => entry.msg === 'request', 50);
    const logs = JSON.stringify(server.logs);
    expect(server.logs.length).toBeGreaterThan(50);
    for (const fragment of ['example.com', 'javascript:', 'polluted', 'original_url', '한국', 'xxxxxxxx']) {
      expect(logs).not.toContain(fragment);
    }
  });
});
