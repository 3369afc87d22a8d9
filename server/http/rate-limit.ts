import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

export interface RateLimitOptions {
  /** Requests a client may make per minute (and in one burst). */
  perMinute: number;
  /** Proxies (IPs or CIDR ranges) whose `X-Forwarded-For` is believed. */
  trustedProxies?: readonly string[];
  /** Clients remembered at most; the longest-known is forgotten first. */
  maxClients?: number;
  /** Epoch ms; injected so tests are exact. */
  now?: () => number;
}

/** A client's bucket: tokens left at `at` (epoch ms). */
interface Bucket {
  tokens: number;
  at: number;
}

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
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) trusted.addAddress(plainAddress(address), type);
    else trusted.addSubnet(address, Number(prefix), type);
  }
  const isTrusted = (address: string) => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
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

/**
 * A per-client token bucket: `perMinute` tokens, refilled evenly over a minute. Returns, for a
 * request, undefined when it may go ahead, or the whole seconds until the client may try again.
 */
export function createRateLimiter(options: RateLimitOptions) {
  const now = options.now ?? Date.now;
  const capacity = options.perMinute;
  const perMs = capacity / 60_000;
  const maxClients = options.maxClients ?? 100_000;
  const buckets = new Map<string, Bucket>();
  const clientOf = createClientAddressOf(options.trustedProxies ?? []);

  // Forget clients whose bucket has refilled: they are exactly like clients never seen.
  const sweep = setInterval(() => {
    const at = now();
    for (const [client, bucket] of buckets) {
      if (bucket.tokens + (at - bucket.at) * perMs >= capacity) buckets.delete(client);
    }
  }, 60_000);
  sweep.unref();

  const take = (client: string): number | undefined => {
    const at = now();
    let bucket = buckets.get(client);
    if (bucket === undefined) {
      if (buckets.size >= maxClients) {
        const oldest = buckets.keys().next().value;
        if (oldest !== undefined) buckets.delete(oldest);
      }
      bucket = { tokens: capacity, at };
      buckets.set(client, bucket);
    } else {
      bucket.tokens = Math.min(capacity, bucket.tokens + (at - bucket.at) * perMs);
      bucket.at = at;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
  };

  return {
    take,
    /** The client a request comes from (see `createClientAddressOf`). */
    clientOf: (req: IncomingMessage) => clientOf(req.socket.remoteAddress, req.headers['x-forwarded-for']),
    close: () => clearInterval(sweep),
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** Requests never limited: CORS preflights (no work, and a refused one reads as a CORS error) and health checks. */
export function isExempt(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' || req.url === '/health';
}
