import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** `::ffff:10.0.0.1` (how a dual-stack socket reports IPv4) is `10.0.0.1`. */
const plainAddress = (address: string) => IPV4_MAPPED.exec(address)?.[1] ?? address;

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy, in which case
 * `X-Forwarded-For` is read from the right (each proxy appends the address it saw) and the first
 * address that is not a trusted proxy is the client. Without trusted proxies the header is
 * ignored, so a client cannot pick its own identity by sending one.
 */
export function createClientAddressOf(trustedProxies: readonly string[]) {
  const isTrusted = trustedProxyCheck(trustedProxies);
  return (peer: string | undefined, forwardedFor: string | string[] | undefined): string => {
    let client = plainAddress(peer ?? '');
    if (trustedProxies.length === 0 || !isTrusted(client) || forwardedFor === undefined) return client;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plainAddress((hops[i] ?? '').trim().replace(/^\[(.*)\]$/, '$1'));
      if (isIP(hop) === 0) break; // not written by a trusted proxy: keep the last address we trust
      client = hop;
      if (!isTrusted(hop)) break;
    }
    return client;
  };
}

/** Whether an address is one of `trustedProxies` (IPs or CIDR ranges; `::ffff:` IPv4 as itself). */
export function trustedProxyCheck(trustedProxies: readonly string[]): (address: string) => boolean {
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) trusted.addAddress(plainAddress(address), type);
    else trusted.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const plain = plainAddress(address);
    const family = isIP(plain);
    return family !== 0 && trusted.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * Who a rate limit counts: an IPv4 address as is, an IPv6 address by its /64 (one subscriber's
 * network: a client given a /64 can pick any of its 2^64 addresses, so counting addresses would
 * let it escape the limit by rotating them). An IPv4 address a dual-stack socket reports as
 * `::ffff:…` counts as itself, not as one /64 shared by every IPv4 client.
 */
export function rateLimitSubject(address: string): string {
  const plain = plainAddress(address);
  if (isIP(plain) !== 6) return plain;
  const groups = expandIpv6(plain.split('%', 1)[0] as string);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, as lower-case hex without leading zeros. */
function expandIpv6(address: string): string[] {
  let text = address.toLowerCase();
  // An embedded IPv4 tail (`64:ff9b::1.2.3.4`) is two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}

/** The client of a Node request (see `createClientAddressOf`). */
export const clientOfRequest = (clientOf: ReturnType<typeof createClientAddressOf>, req: IncomingMessage) =>
  clientOf(req.socket.remoteAddress, req.headers['x-forwarded-for']);

/** `clientOfRequest` with its own trusted proxies: who a request is from, for limits outside the rate limiter. */
export function clientAddressOf(trustedProxies: readonly string[]): (req: IncomingMessage) => string {
  const clientOf = createClientAddressOf(trustedProxies);
  return (req) => clientOfRequest(clientOf, req);
}
