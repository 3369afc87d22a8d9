import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateHost } from '../../core/rules/private-address.js';

/** A delivery not answered within this long failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** The most of an answer read (its body is not used; reading some lets the connection end cleanly). */
const MAX_ANSWER_BYTES = 4096;

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Refuse hosts that resolve to a private, loopback or link-local address (`BLOCK_PRIVATE_TARGETS`). */
  blockPrivateTargets: boolean;
  timeoutMs?: number;
  /** Resolves names (`dns.lookup` by default; tests give one answering what they need). */
  resolve?: typeof dnsLookup;
}

export type PostResult = { ok: true; status: number } | { ok: false; status?: number; error: string };

const privateTarget = (address: string) =>
  `the endpoint's host resolves to a private address (${address}), which this server does not send to`;

/** An address as `isPrivateHost` reads hosts (IPv6 in brackets). */
const asHost = (address: string) => (isIP(address) === 6 ? `[${address}]` : address);

/**
 * Resolves the host at each connection and refuses a private answer before connecting: a name
 * that pointed at a public address when the endpoint was added may point at the metadata
 * service or the loopback now (DNS rebinding).
 */
const checkedLookup =
  (resolve: typeof dnsLookup): LookupFunction =>
  (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as LookupAddress[];
      const refused = list.find((entry) => isPrivateHost(asHost(entry.address)));
      if (refused) return callback(new Error(privateTarget(refused.address)), '', 4);
      if (options.all) return callback(null, list as unknown as string, 4);
      const first = list[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };

/**
 * POSTs one delivery: a 2xx answer within the timeout is success; anything else (another
 * status, a redirect, which is never followed, a refused, reset or slow connection) is a failure
 * with its reason in words. Only node:http: no redirect is followed, no proxy is used.
 */
export function postDelivery(options: PostOptions): Promise<PostResult> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      resolve({ ok: false, error: 'the endpoint URL is not valid' });
      return;
    }
    if (options.blockPrivateTargets && isPrivateHost(url.hostname)) {
      resolve({ ok: false, error: privateTarget(url.hostname) });
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': Buffer.byteLength(options.body) },
      agent: false,
      ...(options.blockPrivateTargets && { lookup: checkedLookup(options.resolve ?? dnsLookup) }),
    });
    const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    const timer = setTimeout(() => {
      finish({ ok: false, error: `no answer within ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      const done = () => {
        if (status >= 200 && status < 300) finish({ ok: true, status });
        else if (status >= 300 && status < 400)
          finish({ ok: false, status, error: `answered ${status} (a redirect, which is not followed)` });
        else finish({ ok: false, status, error: `answered ${status}` });
      };
      response.on('end', done);
      response.on('close', done);
      response.on('error', done);
    });
    request.on('error', (error) => finish({ ok: false, error: error.message }));
    request.end(options.body);
  });
}
