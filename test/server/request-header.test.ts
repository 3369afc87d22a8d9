import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHeader } from '../../server/http/request-header.js';
import { createRequestCatcher } from '../raw-http.js';

// The fast paths read headers through `requestHeader`, the core handler through `Headers.get`
// (what @hono/node-server builds from the raw headers). A repeated header must read the same
// both ways, whether Node keeps only its first value or joins them.
const NAMES = ['authorization', 'x-api-key', 'accept-language', 'sec-purpose', 'user-agent', 'purpose'];

const catcher = createRequestCatcher();
beforeAll(() => catcher.start());
afterAll(() => catcher.close());

/** Sends a GET with these header lines after its Host (repeats and all); resolves with what Node made of it. */
const sendRaw = (lines: string[]) => catcher.send(['Host: sho.rt', ...lines]);

/** The request's headers as the Fetch API reads them: every line, in order. */
const asFetchHeaders = (req: IncomingMessage) => {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  return headers;
};

describe('requestHeader', () => {
  it('reads repeated headers as Headers.get does: those Node keeps the first of, and those it joins', async () => {
    const req = await sendRaw([
      'Authorization: Bearer first',
      'Authorization: Bearer second',
      'X-API-Key: k1',
      'x-api-key: k2',
      'Accept-Language: ko',
      'Accept-Language: en',
      'Sec-Purpose: prefetch',
      'User-Agent: one',
      'User-Agent: two',
    ]);
    const fetchHeaders = asFetchHeaders(req);
    for (const name of NAMES) expect(requestHeader(req, name)).toBe(fetchHeaders.get(name) ?? undefined);
    expect(requestHeader(req, 'authorization')).toBe('Bearer first, Bearer second');
    expect(requestHeader(req, 'x-api-key')).toBe('k1, k2');
    expect(requestHeader(req, 'accept-language')).toBe('ko, en');
    expect(requestHeader(req, 'purpose')).toBeUndefined();
  });

  it('reads a header sent once as it was sent', async () => {
    const req = await sendRaw(['Authorization: Bearer only', 'Accept-Language: ko-KR,ko;q=0.9']);
    expect(requestHeader(req, 'authorization')).toBe('Bearer only');
    expect(requestHeader(req, 'accept-language')).toBe('ko-KR,ko;q=0.9');
    expect(requestHeader(req, 'x-api-key')).toBeUndefined();
  });
});
