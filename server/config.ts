import { z } from 'zod';
import { isKnownTimeZone } from '../core/dates.js';
import { DEFAULT_MAX_URL_LENGTH } from '../core/url.js';

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
  MAX_URL_LENGTH: optional(z.coerce.number().int().min(32).max(65_536)).default(DEFAULT_MAX_URL_LENGTH),
  API_KEY: optional(z.string().min(16, 'must be at least 16 characters long when set')),
  LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).default('info'),
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
  return {
    port: values.PORT,
    host: values.HOST,
    baseUrl: (values.BASE_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    database: values.DATABASE_URL,
    timeZone: values.TIMEZONE,
    maxUrlLength: values.MAX_URL_LENGTH,
    apiKey: values.API_KEY,
    logLevel: values.LOG_LEVEL,
  };
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
