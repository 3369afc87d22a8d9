import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedirectHeaders, rawHeaderOf, redirectHeadersOf } from '../../server/http/redirect-headers.js';
import { createRequestCatcher } from '../raw-http.js';

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

const catcher = createRequestCatcher();
beforeAll(() => catcher.start());
afterAll(() => catcher.close());

const asNodeReadsThem = (req: IncomingMessage, countryHeader: string | undefined) => {
  const read = new RedirectHeaders();
  for (const [field, name] of Object.entries(FIELDS))
    if (name !== 'cf-ipcountry' || countryHeader !== undefined)
      read[field as keyof RedirectHeaders] = req.headers[name] as string;
  return read;
};

const CASES: Array<{ title: string; lines: string[]; countryHeader?: string; expected: Partial<RedirectHeaders> }> = [
  {
    title: "a browser's headers, each sent once",
    lines: [
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
    ],
    countryHeader: 'cf-ipcountry',
    expected: {
      host: 'sho.rt',
      secPurpose: 'prefetch;prerender',
      country: 'KR',
      requestId: 'trace-42',
      dnt: '1',
    },
  },
  {
    title: 'repeated headers in any case: the first Host, Referer and User-Agent, every other joined',
    lines: [
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
    ],
    countryHeader: 'cf-ipcountry',
    expected: {
      host: 'sho.rt',
      referer: 'https://one.example/',
      userAgent: 'one',
      requestId: 'a, b',
      country: 'KR, US',
    },
  },
  {
    title: 'nothing it was not sent (names that only begin alike), and no country without a country header',
    lines: ['Host: sho.rt', 'CF-IPCountry: KR', 'X-Hosts: no', 'Referers: no', 'Purposes: no'],
    expected: { ...new RedirectHeaders(), host: 'sho.rt' },
  },
  {
    title: 'no Host from a request without one (the fast path then leaves it to the handler)',
    lines: ['User-Agent: curl/8'],
    expected: { ...new RedirectHeaders(), userAgent: 'curl/8' },
  },
];

describe('redirectHeadersOf', () => {
  it.each(CASES)('reads $title as Node does', async ({ lines, countryHeader, expected }) => {
    const req = await catcher.send(lines, '/abc');
    const read = redirectHeadersOf(req.rawHeaders, countryHeader);
    expect(read).toEqual(asNodeReadsThem(req, countryHeader));
    expect(read).toMatchObject(expected);
  });
});

describe('rawHeaderOf', () => {
  it('reads one header in any case, its values joined as Node joins them', () => {
    const raw = ['Host', 'sho.rt', 'Accept-Language', 'ko-KR', 'ACCEPT-LANGUAGE', 'en;q=0.5', 'Accept', 'text/html'];
    expect(rawHeaderOf(raw, 'accept-language')).toBe('ko-KR, en;q=0.5');
    expect(rawHeaderOf(raw, 'user-agent')).toBeUndefined();
  });
});
