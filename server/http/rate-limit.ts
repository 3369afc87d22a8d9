import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { bearerTokenOf } from '../../core/http/middleware/api-key.js';
import { isHealthTarget, YOURLS_API_PATH } from '../../core/http/paths.js';
import { createPasswordTries, TRIES_PER_MINUTE } from '../../core/passwords/password-tries.js';
import type { Logger } from '../process/logger.js';
import { clientOfRequest, createClientAddressOf, rateLimitSubject } from './client-address.js';
import { createImportRowBudget, DEFAULT_IMPORT_ROWS_PER_MINUTE } from './import-row-budget.js';
import { createKeyedHash } from './keyed-hash.js';
import { createSharedPasswordTries } from './shared-password-tries.js';

export interface RateLimitOptions {
  /** Requests a client (an IPv4 address, an IPv6 /64) may make per minute. */
  perMinute: number;
  /** Requests one API key may make per minute, on top of its client's limit (default: `perMinute`). */
  perKeyPerMinute?: number;
  /** Links an owner (or the administrator) may create by import per minute (`IMPORT_ROWS_PER_MINUTE`). */
  importRowsPerMinute?: number;
  /** Proxies (IPs or CIDR ranges) whose `X-Forwarded-For` is believed. */
  trustedProxies?: readonly string[];
  /** When set, the counts live in this Redis, shared by every instance; else in this process. */
  redisUrl?: string;
  /**
   * Needed with `redisUrl`: the deployment's secret (the store's `signingSecret`, one per
   * database, so every instance sharing it names a client alike). Redis keys that name a client
   * (its request counts, its password tries) hold a keyed hash of it, never its address.
   */
  keySecret?: string;
  logger?: Pick<Logger, 'warn' | 'info'>;
}

/** Where the counts are, for `/health`: memory, Redis, or Redis out of reach (limits not enforced). */
export type RateLimitState = 'memory' | 'redis' | 'redis unreachable: not enforced';

// A Redis that does not answer within this is treated as out of reach (the request goes ahead).
const REDIS_COMMAND_TIMEOUT_MS = 250;
const OUTAGE_LOG_EVERY_MS = 10_000;
const FIRST_CONNECT_WAIT_MS = 1000;

/**
 * Per-client and per-key request limits on `rate-limiter-flexible`: fixed one-minute windows,
 * counted in memory or, with `redisUrl`, in Redis (one atomic script per count), so N instances
 * allow the limit once, not N times. Redis out of reach never stops a request: the limit is not
 * enforced meanwhile (fail open), which is logged, and `state()` says so for `/health`.
 * `take` resolves with undefined when a request may go ahead, or the whole seconds until it may.
 */
export function createRateLimiter(options: RateLimitOptions) {
  const redis =
    options.redisUrl === undefined
      ? undefined
      : new Redis(options.redisUrl, {
          enableOfflineQueue: false, // fail at once while disconnected, never queue requests
          commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
          maxRetriesPerRequest: 0,
          retryStrategy: (attempt) => Math.min(2000, 100 * attempt),
        });
  let lastOutageLog = 0;
  let redisDown = false;
  const outage = (error: unknown) => {
    redisDown = true;
    const now = Date.now();
    if (now - lastOutageLog >= OUTAGE_LOG_EVERY_MS) {
      lastOutageLog = now;
      options.logger?.warn({ err: error }, 'Redis is out of reach: rate limits are not enforced until it is back');
    }
  };
  redis?.on('error', outage);
  // Right after start the connection is still being made: the first requests wait for it (a
  // moment at most) rather than pass uncounted.
  let connecting: Promise<unknown> | undefined =
    redis &&
    Promise.race([
      new Promise((resolve) => redis.once('ready', resolve)),
      new Promise((resolve) => setTimeout(resolve, FIRST_CONNECT_WAIT_MS).unref()),
    ]).then(() => {
      connecting = undefined;
    });
  /** Resolves once Redis may be asked: every count (requests, import rows, password tries) waits on it. */
  const redisReady = async () => {
    if (connecting) await connecting;
  };
  redis?.on('ready', () => {
    if (redisDown) options.logger?.info('Redis is back: rate limits are enforced again');
    redisDown = false;
  });

  const limiter = (prefix: string, points: number): RateLimiterAbstract =>
    redis === undefined
      ? new RateLimiterMemory({ keyPrefix: prefix, points, duration: 60 })
      : new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `linklet:rl:${prefix}`,
          points,
          duration: 60,
        });
  const byClient = limiter('client', options.perMinute);
  const clientSubject = subjectNamer(options.keySecret, options.redisUrl);
  const byKey = limiter('key', options.perKeyPerMinute ?? options.perMinute);
  const clientOf = createClientAddressOf(options.trustedProxies ?? []);
  const importRowsPerMinute = options.importRowsPerMinute ?? DEFAULT_IMPORT_ROWS_PER_MINUTE;
  const importBudget = createImportRowBudget({
    limiter: limiter('import-rows', importRowsPerMinute),
    rowsPerMinute: importRowsPerMinute,
    ready: redisReady,
    onFailure: (error) => {
      if (!(error instanceof RateLimiterRes)) outage(error);
    },
  });

  // Password tries in Redis too, so N instances allow 5 a minute per client and link, not 5N.
  const passwordKeyOf =
    options.keySecret === undefined ? undefined : createKeyedHash(options.keySecret, 'linklet password tries');
  const passwordTries =
    redis === undefined || passwordKeyOf === undefined
      ? undefined
      : createSharedPasswordTries({
          limiter: limiter('password', TRIES_PER_MINUTE),
          keyOf: (client, codeKey) => passwordKeyOf(`${client}\n${codeKey}`),
          ready: redisReady,
          onFailure: outage,
          fallback: createPasswordTries(),
        });

  /** Counts one request of `subject`; the seconds to wait when over, undefined otherwise (or on failure). */
  const count = async (rateLimiter: RateLimiterAbstract, subject: string): Promise<number | undefined> => {
    try {
      await redisReady();
      await rateLimiter.consume(subject);
      if (redis !== undefined) redisDown = false;
      return undefined;
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      outage(refusal);
      return undefined;
    }
  };

  return {
    /**
     * Counts a request of this client (and of this key, hashed, when it carries one; only once
     * the client is within its own limit, so made-up keys cannot make a client new).
     */
    async take(client: string, keyHash?: string): Promise<number | undefined> {
      const wait = await count(byClient, clientSubject(client));
      if (wait !== undefined || keyHash === undefined) return wait;
      return count(byKey, keyHash);
    },
    /** Links each owner may create by import per minute, counted where the request limits are. */
    importBudget,
    /** Password tries counted in Redis (with `redisUrl` and `keySecret`); else the core counts them in memory. */
    passwordTries,
    /** The client a request comes from (see `createClientAddressOf`). */
    clientOf: (req: IncomingMessage) => clientOfRequest(clientOf, req),
    /** A digest of the key a request carries (never the key itself, in memory or in Redis). */
    keyOf(req: IncomingMessage): string | undefined {
      const given = req.headers['x-api-key'] ?? bearerTokenOf(req.headers.authorization) ?? yourlsSignatureOf(req.url);
      const key = Array.isArray(given) ? given.join(',') : given;
      return key ? createHash('sha256').update(key).digest('base64url').slice(0, 22) : undefined;
    },
    state(): RateLimitState {
      if (redis === undefined) return 'memory';
      return redisDown || redis.status !== 'ready' ? 'redis unreachable: not enforced' : 'redis';
    },
    close: () => {
      redis?.disconnect();
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * How a client is named in the counts: its address (an IPv6 /64) in this process's memory, which
 * nothing keeps; in Redis, which outlives the process and may be read by others, a keyed hash of
 * it (HMAC-SHA-256, cut to 128 bits), so no address is stored and none can be found by hashing
 * every IPv4 address, as a plain hash would allow. The key is derived from the deployment's
 * secret for this one use.
 */
function subjectNamer(secret: string | undefined, redisUrl: string | undefined): (client: string) => string {
  if (redisUrl === undefined) return rateLimitSubject;
  if (secret === undefined) throw new Error('Counting in Redis needs keySecret: client addresses are never stored');
  const nameOf = createKeyedHash(secret, 'linklet rate-limit client names');
  return (client) => nameOf(rateLimitSubject(client)).slice(0, 22);
}

/**
 * The key a YOURLS client sends as `signature` in the query, so its requests count against the
 * key's limit too (one sent in a form body counts against the client's limit alone: the body is
 * not read before the limit is checked).
 */
function yourlsSignatureOf(target: string | undefined): string | undefined {
  if (target === undefined || !target.startsWith(`${YOURLS_API_PATH}?`)) return undefined;
  return new URLSearchParams(target.slice(YOURLS_API_PATH.length + 1)).get('signature') ?? undefined;
}

/** Requests never limited: CORS preflights (no work, and a refused one reads as a CORS error) and health checks. */
export function isExempt(req: Pick<IncomingMessage, 'method' | 'url'>): boolean {
  return req.method === 'OPTIONS' || isHealthTarget(req.url ?? '');
}
