import { createServer, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedirectHeaders, redirectHeadersOf } from '../../server/http/redirect-headers.js';
import { listenOnLoopback } from '../raw-http.js';

// The redirect reads its headers from Node's raw array; each must be what `req.headers` (Node's
// own reading of the same lines: first value kept, or values joined) gives for that name.
const FIELDS = {
  host: 'host',
  requestId: 'x-request-id',
  secPurpose: 'sec-purpose',
  purpose: 'purpose',
  referer: 'referer',
  userAgent: 'user-agent',
  dnt: 'dnt',
  secGpc: 'sec-gpc',
  forwardedFor: 'x-forwarded-for',
  country: 'cf-ipcountry',
} as const satisfies Record<keyof RedirectHeaders, string>;

let origin: string;
let seen: IncomingMessage | undefined;
const server = createServer({ requireHostHeader: false }, (req, res) => {
  seen = req;
  res.end();
});
beforeAll(async () => {
  origin = await listenOnLoopback(server);
});
afterAll(() => server.close());

/** Sends a GET whose header lines are written as given (no Host unless given), and waits for the answer. */
function sendRaw(lines: string[]): Promise<IncomingMessage> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(['GET /abc HTTP/1.1', 'Connection: close', ...lines, '', ''].join('\r\n'));
    });
    socket.on('data', () => {});
    socket.on('end', () => resolve(seen as IncomingMessage));
    socket.on('error', reject);
  });
}

const asNodeReadsThem = (req: IncomingMessage) => {
  const read = new RedirectHeaders();
  for (const [field, name] of Object.entries(FIELDS))
    read[field as keyof RedirectHeaders] = req.headers[name] as string;
  return read;
};

describe('redirectHeadersOf', () => {
  it("reads each of a browser's headers as Node's headers object does", async () => {
    const req = await sendRaw([
      'Host: sho.rt',
      'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0',
      'Accept: text/html,application/xhtml+xml',
      'Accept-Language: ko-KR,ko;q=0.9',
      'Referer: https://news.example/item?id=1',
      'Sec-Purpose: prefetch;prerender',
      'DNT: 1',
      'Sec-GPC: 1',
      'CF-IPCountry: KR',
      'X-Forwarded-For: 203.0.113.9, 10.0.0.2',
      'X-Request-Id: trace-42',
    ]);
    const read = redirectHeadersOf(req.rawHeaders, 'cf-ipcountry');
    expect(read).toEqual(asNodeReadsThem(req));
    expect(read).toMatchObject({
      host: 'sho.rt',
      secPurpose: 'prefetch;prerender',
      country: 'KR',
      requestId: 'trace-42',
    });
  });

  it('keeps the first Host, Referer and User-Agent and joins every other repeated header, in any case', async () => {
    const req = await sendRaw([
      'host: sho.rt',
      'HOST: evil.example',
      'referer: https://one.example/',
      'REFERER: https://two.example/',
      'user-agent: one',
      'User-Agent: two',
      'x-request-id: a',
      'X-REQUEST-ID: b',
      'Purpose: prefetch',
      'purpose: other',
      'dnt: 1',
      'Dnt: 0',
      'sec-gpc: 1',
      'SEC-GPC: 1',
      'sec-purpose: prefetch',
      'Sec-Purpose: prerender',
      'x-forwarded-for: 203.0.113.9',
      'X-Forwarded-For: 10.0.0.2',
      'cf-ipcountry: KR',
      'CF-IPCOUNTRY: US',
    ]);
    const read = redirectHeadersOf(req.rawHeaders, 'cf-ipcountry');
    expect(read).toEqual(asNodeReadsThem(req));
    expect(read).toMatchObject({
      host: 'sho.rt',
      referer: 'https://one.example/',
      userAgent: 'one',
      requestId: 'a, b',
    });
    expect(read.country).toBe('KR, US');
  });

  it('reads nothing it was not sent, nor a country without a country header set', async () => {
    const req = await sendRaw(['Host: sho.rt', 'CF-IPCountry: KR', 'X-Hosts: no', 'Referers: no', 'Purposes: no']);
    const read = redirectHeadersOf(req.rawHeaders, undefined);
    expect(read).toEqual({ ...new RedirectHeaders(), host: 'sho.rt' });
  });

  it('reads no Host from a request without one (HTTP/1.1 requires it; the fast path then leaves the request)', async () => {
    const req = await sendRaw(['User-Agent: curl/8']);
    expect(redirectHeadersOf(req.rawHeaders, undefined)).toEqual({ ...new RedirectHeaders(), userAgent: 'curl/8' });
  });
});
