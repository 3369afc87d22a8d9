import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { DEFAULT_VISITS_RETENTION_DAYS } from '../../core/management/visits/visits.js';
import { DEFAULT_REDIRECT_CACHE_SECONDS } from '../../core/redirect/redirect-cache.js';
import { isKnownTimeZone } from '../../core/rules/dates.js';
import { DEFAULT_COMPAT_EXPIRE_DURATION, EXPIRE_DURATIONS, type ExpireDuration } from '../../core/rules/expiry.js';
import { DEFAULT_MAX_URL_LENGTH, LONGEST_MAX_URL_LENGTH, trimTrailingSlashes } from '../../core/rules/url.js';
import { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_CLIENT } from '../http/connection-cap.js';
import { DEFAULT_IMPORT_ROWS_PER_MINUTE } from '../http/import-row-budget.js';
import { DEFAULT_CACHE_MAX_BYTES } from '../stores/cache/link-cache.js';
import type { LogFormat } from './log-format.js';

/** Where links are kept, from `DATABASE_URL`. */
export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; connectionString: string };

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  database: DatabaseConfig;
  timeZone: string;
  maxUrlLength: number;
  apiKey: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `LOG_FORMAT`; unset: pretty in a terminal, JSON lines otherwise (`logFormatOf`). */
  logFormat: LogFormat | undefined;
  /** One `info` line per answered request (`ACCESS_LOG`); failures are logged either way. */
  accessLog: boolean;
  /** Count clicks on short URLs (`CLICK_COUNTING`), written in batches every second. */
  clickCounting: boolean;
  /** Record each click's visit (`VISITS`); `off` counts clicks alone, as before visits (bots included). */
  visits: boolean;
  /** The header a trusted proxy sets to the client's country (`COUNTRY_HEADER`), lower case. */
  countryHeader: string | undefined;
  /** A local country `.mmdb` file (`GEOIP_DB`) the client's address is looked up in. */
  geoipDb: string | undefined;
  /** Days visits are kept before they are folded into daily counts (`VISITS_RETENTION_DAYS`). */
  visitsRetentionDays: number;
  /** Active links kept in each process's memory; 0 turns the cache off. */
  cacheEntries: number;
  /** Most bytes each process's link cache holds. */
  cacheMaxBytes: number;
  /** Longest a cached link is trusted before it is read again (never past its expiry). */
  cacheSeconds: number;
  /** Longest a browser may keep a redirect (never past the link's expiry); 0 sends `no-store`. */
  redirectCacheSeconds: number;
  /** How long links made through the YOURLS and Shlink APIs live (`COMPAT_EXPIRE_DURATION`). */
  compatExpireDuration: ExpireDuration;
  /** Server processes sharing the port (node:cluster); 1 runs a single process. */
  workers: number;
  /** PostgreSQL connections per process. */
  databasePoolSize: number;
  /** Longest a client may take to send a request's headers, and the whole request (ms). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Open connections each process accepts in all (`MAX_CONNECTIONS`). */
  maxConnections: number;
  /** Open connections each process accepts from one client address, trusted proxies aside. */
  maxConnectionsPerClient: number;
  /** Requests per minute per client (IPv6: per /64); 0 turns the limits off. */
  rateLimitPerMinute: number;
  /** Requests per minute per API key, on top of its client's limit. */
  rateLimitPerKeyPerMinute: number;
  /** Links an owner may create by import per minute while rate limits are on (`IMPORT_ROWS_PER_MINUTE`). */
  importRowsPerMinute: number;
  /** Where the rate limits count, shared by every instance; unset: in each process. */
  redisUrl: string | undefined;
  /** Proxies (IPs or CIDR ranges) whose `X-Forwarded-For` names the client; empty: none. */
  trustedProxies: string[];
  /** Refuse targets on private, loopback, link-local and unique-local addresses and `localhost`. */
  blockPrivateTargets: boolean;
}

// Docker and systemd files often set a variable to "" to mean "unset".
const unsetIfEmpty = (value: unknown) => (value === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(unsetIfEmpty, schema.optional());

const envSchema = z.object({
  PORT: optional(z.coerce.number().int().min(1).max(65535)).default(8080),
  HOST: optional(z.string()).default('127.0.0.1'),
  BASE_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL such as https://sho.rt' })),
  DATABASE_URL: optional(z.string())
    .default('sqlite:./data/linklet.db')
    .transform((url, ctx) => {
      const database = parseDatabaseUrl(url);
      if (typeof database === 'string') {
        ctx.issues.push({ code: 'custom', message: database, input: url });
        return z.NEVER;
      }
      return database;
    }),
  TIMEZONE: optional(
    z.string().refine(isKnownTimeZone, 'must be an IANA time zone name such as UTC or Asia/Seoul'),
  ).default('UTC'),
  MAX_URL_LENGTH: optional(z.coerce.number().int().min(32).max(LONGEST_MAX_URL_LENGTH)).default(DEFAULT_MAX_URL_LENGTH),
  API_KEY: optional(z.string().min(16, 'must be at least 16 characters long when set')),
  LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).default('info'),
  LOG_FORMAT: optional(z.enum(['pretty', 'json'], { error: 'must be pretty or json' })),
  ACCESS_LOG: optional(z.enum(['on', 'off'])).default('on'),
  CLICK_COUNTING: optional(z.enum(['on', 'off'])).default('on'),
  VISITS: optional(z.enum(['on', 'off'])).default('on'),
  COUNTRY_HEADER: optional(
    z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name such as CF-IPCountry'),
  ),
  GEOIP_DB: optional(z.string().min(1)),
  VISITS_RETENTION_DAYS: optional(z.coerce.number().int().min(1).max(36_500)).default(DEFAULT_VISITS_RETENTION_DAYS),
  CACHE_ENTRIES: optional(z.coerce.number().int().min(0).max(10_000_000)).default(1_000_000),
  CACHE_MAX_BYTES: optional(z.string())
    .default(String(DEFAULT_CACHE_MAX_BYTES))
    .transform((value, ctx) => {
      const bytes = parseByteSize(value);
      if (bytes !== undefined && bytes >= MIN_CACHE_BYTES && bytes <= MAX_CACHE_BYTES) return bytes;
      ctx.issues.push({
        code: 'custom',
        message: 'must be a size from 1MiB to 4GiB: bytes, or a number with KiB, MiB or GiB (e.g. 128MiB)',
        input: value,
      });
      return z.NEVER;
    }),
  CACHE_SECONDS: optional(z.coerce.number().int().min(1).max(86_400)).default(600),
  REDIRECT_CACHE_SECONDS: optional(z.string())
    .default(String(DEFAULT_REDIRECT_CACHE_SECONDS))
    .transform((value, ctx) => {
      if (/^\d{1,7}$/.test(value) && Number(value) <= MAX_REDIRECT_CACHE_SECONDS) return Number(value);
      ctx.issues.push({
        code: 'custom',
        message: `must be a whole number of seconds from 0 (browsers never keep a redirect) to ${MAX_REDIRECT_CACHE_SECONDS} (31 days, the longest a link lives)`,
        input: value,
      });
      return z.NEVER;
    }),
  COMPAT_EXPIRE_DURATION: optional(
    z.enum(EXPIRE_DURATIONS, { error: `must be one of ${EXPIRE_DURATIONS.join(', ')}` }),
  ).default(DEFAULT_COMPAT_EXPIRE_DURATION),
  WORKERS: optional(z.string())
    .default('1')
    .transform((value, ctx) => {
      if (value === 'auto') return availableParallelism();
      if (/^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= 256) return Number(value);
      ctx.issues.push({ code: 'custom', message: 'must be auto or a whole number from 1 to 256', input: value });
      return z.NEVER;
    }),
  DATABASE_POOL_SIZE: optional(z.coerce.number().int().min(1).max(1000)).default(10),
  HEADERS_TIMEOUT_MS: optional(z.coerce.number().int().min(100).max(600_000)).default(10_000),
  REQUEST_TIMEOUT_MS: optional(z.coerce.number().int().min(100).max(3_600_000)).default(30_000),
  MAX_CONNECTIONS: optional(z.coerce.number().int().min(1).max(1_000_000)).default(DEFAULT_MAX_CONNECTIONS),
  MAX_CONNECTIONS_PER_CLIENT: optional(z.coerce.number().int().min(1).max(1_000_000)).default(
    DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
  ),
  RATE_LIMIT_PER_MINUTE: optional(z.coerce.number().int().min(0).max(1_000_000)).default(0),
  RATE_LIMIT_PER_KEY_PER_MINUTE: optional(z.coerce.number().int().min(1).max(1_000_000)),
  IMPORT_ROWS_PER_MINUTE: optional(z.coerce.number().int().min(1).max(1_000_000)),
  REDIS_URL: optional(
    z.string().regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379'),
  ),
  BLOCK_PRIVATE_TARGETS: optional(
    z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' }),
  ),
  TRUSTED_PROXIES: optional(z.string())
    .default('')
    .transform((value, ctx) => {
      const entries = value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      for (const entry of entries) {
        if (!isAddressOrRange(entry)) {
          ctx.issues.push({
            code: 'custom',
            message: `'${entry}' is not an IP address or CIDR range (e.g. 10.0.0.1, 10.0.0.0/8, ::1)`,
            input: value,
          });
        }
      }
      return entries;
    }),
});

/** The configuration could not be read; the message lists every bad variable and its rule. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads the configuration from the environment once, at start, so a typo stops the server with
 * a message instead of surfacing later as a wrong short URL or a lost link.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  if (values.HEADERS_TIMEOUT_MS > values.REQUEST_TIMEOUT_MS) {
    throw new ConfigError('Invalid configuration:\n  HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS');
  }
  if (values.IMPORT_ROWS_PER_MINUTE !== undefined && values.RATE_LIMIT_PER_MINUTE === 0) {
    throw new ConfigError(
      'Invalid configuration:\n  IMPORT_ROWS_PER_MINUTE: counts only while rate limits are on; set RATE_LIMIT_PER_MINUTE too',
    );
  }
  return {
    port: values.PORT,
    host: values.HOST,
    baseUrl: trimTrailingSlashes(values.BASE_URL ?? `http://localhost:${values.PORT}`),
    database: values.DATABASE_URL,
    timeZone: values.TIMEZONE,
    maxUrlLength: values.MAX_URL_LENGTH,
    apiKey: values.API_KEY,
    logLevel: values.LOG_LEVEL,
    logFormat: values.LOG_FORMAT,
    accessLog: values.ACCESS_LOG === 'on',
    clickCounting: values.CLICK_COUNTING === 'on',
    visits: values.VISITS === 'on',
    countryHeader: values.COUNTRY_HEADER?.toLowerCase(),
    geoipDb: values.GEOIP_DB,
    visitsRetentionDays: values.VISITS_RETENTION_DAYS,
    cacheEntries: values.CACHE_ENTRIES,
    cacheMaxBytes: values.CACHE_MAX_BYTES,
    cacheSeconds: values.CACHE_SECONDS,
    redirectCacheSeconds: values.REDIRECT_CACHE_SECONDS,
    compatExpireDuration: values.COMPAT_EXPIRE_DURATION,
    workers: values.WORKERS,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    headersTimeoutMs: values.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: values.REQUEST_TIMEOUT_MS,
    maxConnections: values.MAX_CONNECTIONS,
    maxConnectionsPerClient: values.MAX_CONNECTIONS_PER_CLIENT,
    rateLimitPerMinute: values.RATE_LIMIT_PER_MINUTE,
    rateLimitPerKeyPerMinute: values.RATE_LIMIT_PER_KEY_PER_MINUTE ?? values.RATE_LIMIT_PER_MINUTE,
    importRowsPerMinute: values.IMPORT_ROWS_PER_MINUTE ?? DEFAULT_IMPORT_ROWS_PER_MINUTE,
    redisUrl: values.REDIS_URL,
    trustedProxies: values.TRUSTED_PROXIES,
    // On by default for a server other machines can reach; the loopback default is a developer's.
    blockPrivateTargets:
      values.BLOCK_PRIVATE_TARGETS === undefined
        ? !isLoopbackHost(values.HOST)
        : ['true', '1', 'yes', 'on'].includes(values.BLOCK_PRIVATE_TARGETS),
  };
}

/**
 * Whether `HOST` lets only this machine connect: a 127.x address, `::1` or `localhost`.
 * Anything else (`0.0.0.0`, `::`, a LAN or public address) is a server others can reach.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

const MIN_CACHE_BYTES = 1024 * 1024;
const MAX_REDIRECT_CACHE_SECONDS = 31 * 86_400;
const MAX_CACHE_BYTES = 4 * 1024 ** 3;
const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** `134217728`, `128MiB`, `512 KiB`, `1GiB`: a whole number of bytes, or undefined. */
function parseByteSize(value: string): number | undefined {
  const match = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(value);
  const unit = BYTE_UNITS[(match?.[2] ?? '').toLowerCase()];
  if (!match || unit === undefined) return undefined;
  return Number(match[1]) * unit;
}

/** The store for logs: the SQLite path, or just `postgres` (its URL may hold a password). */
export function describeDatabase(database: DatabaseConfig): string {
  return database.kind === 'sqlite' ? `sqlite:${database.path}` : 'postgres';
}

/**
 * `sqlite:PATH` (relative to the working directory, or absolute) or `postgres[ql]://…`; a string
 * is the rule the URL broke, reported with every other bad variable.
 */
function parseDatabaseUrl(url: string): DatabaseConfig | string {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    return path === '' ? 'sqlite: needs a file path, e.g. sqlite:./data/linklet.db' : { kind: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', connectionString: url };
  return 'must start with sqlite: (e.g. sqlite:./data/linklet.db) or postgres:// (e.g. postgres://user@host/db)';
}

/** `10.0.0.1`, `::1`, `10.0.0.0/8` or `fd00::/8`: what `TRUSTED_PROXIES` lists. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Every variable the server reads; a test holds docs/operations.md's settings table to it. */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);
