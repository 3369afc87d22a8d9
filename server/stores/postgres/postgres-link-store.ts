import pg from 'pg';
import { redactConnectionString } from '../../process/redact-secrets.js';
import type { OnMigrated } from '../schema-version.js';
import type { ServerLinkStore } from '../server-link-store.js';
import { createPostgresBulkEdits } from './postgres-bulk-edits.js';
import { createPostgresChangeFeed } from './postgres-change-feed.js';
import { createPostgresClaimTokens } from './postgres-claim-tokens.js';
import { CLAIM_GROUPS_IN_FLIGHT, createPostgresClaims } from './postgres-claims.js';
import { createPostgresClicks } from './postgres-clicks.js';
import { createPostgresLinkManagement } from './postgres-link-management.js';
import { createPostgresLinkReads } from './postgres-link-reads.js';
import { migratePostgres } from './postgres-migrate.js';
import { createPostgresOwnerKeys } from './postgres-owner-keys.js';
import { createPostgresRecentLinks } from './postgres-recent-links.js';
import { createPostgresWebhooks } from './postgres-webhooks.js';

export interface PostgresLinkStoreOptions {
  /** A libpq-style URL, e.g. `postgres://user:password@host:5432/database`. */
  connectionString: string;
  /** Keep Linklet's tables in this schema (created if missing) instead of the search path's first. */
  schema?: string;
  /** Connections per instance; several instances share the server's `max_connections`. */
  poolSize?: number;
  /**
   * Told of failures no request sees: an idle connection dropped by the server (restart,
   * failover). The pool discards it and the next query reconnects, but an operator wants to know.
   */
  onBackgroundError?: (error: Error) => void;
  /** Told of each migration this start applies (the server logs them). */
  onMigrated?: OnMigrated;
  /** How long a writer waits to look for old visits again after a fold that was not full (default 10 s). */
  foldEveryMs?: number;
}

/**
 * Makes sure a connection's commits are flushed to disk before PostgreSQL acknowledges them:
 * `synchronous_commit=off` (set by an operator for the database or role) becomes `on`. Every
 * other value (`local`, `remote_write`, `on`, `remote_apply`) already flushes locally; it is kept.
 */
export async function ensureDurableCommits(client: pg.ClientBase): Promise<void> {
  await client.query(
    "SELECT set_config('synchronous_commit', 'on', false) WHERE current_setting('synchronous_commit') = 'off'",
  );
}

/**
 * A `LinkStore` on PostgreSQL, for running several server instances against one database. It
 * migrates its tables at start (safe when instances start together) and makes `create` a single
 * `INSERT ... ON CONFLICT` statement, so the database, not the instances, decides who wins a code.
 */
export async function createPostgresLinkStore(options: PostgresLinkStoreOptions): Promise<ServerLinkStore> {
  const prefix = options.schema === undefined ? '' : `${pg.escapeIdentifier(options.schema)}.`;
  const links = `${prefix}links`;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? 10,
    // Fail a request (and a health check) instead of hanging when the server is unreachable.
    connectionTimeoutMillis: 10_000,
    // pg-pool awaits this before it hands out a new connection (its types do not list it yet).
    onConnect: ensureDurableCommits,
  } as pg.PoolConfig);
  // An idle connection dropped by the server (restart, failover) would otherwise crash the
  // process; the pool discards it and the next query reconnects or reports the failure.
  pool.on('error', (error) => options.onBackgroundError?.(error));

  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(
      `Cannot connect to PostgreSQL at ${redactConnectionString(options.connectionString)}: ${(error as Error).message}. ` +
        'Check the connection string (host, port, user, password, database) and that PostgreSQL is running and reachable.',
      { cause: error },
    );
  }
  try {
    await migratePostgres(client, options.schema, options.onMigrated);
  } catch (error) {
    client.release();
    await pool.end().catch(() => {});
    throw error;
  }
  client.release();
  // Reads share the pool with the claims: what the claims in flight leave of it.
  const find = createPostgresLinkReads(pool, links, Math.max(1, (options.poolSize ?? 10) - CLAIM_GROUPS_IN_FLIGHT));
  const claim = createPostgresClaims(pool, links, find);

  const changes = createPostgresChangeFeed(options.connectionString);
  return {
    ...createPostgresOwnerKeys(pool, prefix),
    ...createPostgresLinkManagement(pool, prefix),
    ...createPostgresClicks(pool, prefix, options.foldEveryMs),
    ...createPostgresBulkEdits(pool, prefix),
    ...createPostgresWebhooks(pool, prefix),
    ...createPostgresClaimTokens(pool, prefix),
    changes,
    create: claim,
    findByCodeKey: find,
    recentActiveLinks: createPostgresRecentLinks(pool, links),
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await changes.close();
      await pool.end();
    },
  };
}
