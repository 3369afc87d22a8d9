import pg from 'pg';
import type { CreateLinkResult, Link, LinkStore } from '../core/link-store.js';

export interface PostgresLinkStoreOptions {
  /** A libpq-style URL, e.g. `postgres://user:password@host:5432/database`. */
  connectionString: string;
  /** Keep Linklet's tables in this schema (created if missing) instead of the search path's first. */
  schema?: string;
  /** Connections per instance; several instances share the server's `max_connections`. */
  poolSize?: number;
}

// One fixed key, so instances migrating any schema at once queue up instead of racing DDL.
const MIGRATION_LOCK_KEY = 0x4c4e4b4c;
// Each holder read can race a replacement; a few rounds settle it unless something is badly wrong.
const MAX_CREATE_ATTEMPTS = 5;

interface LinkRow {
  code_key: string;
  code: string;
  original_url: string;
  created_at: string;
  expires_at: string;
}

// pg hands bigint back as a string (it may exceed 2^53); epoch milliseconds never do.
const toLink = (row: LinkRow): Link => ({
  code: row.code,
  codeKey: row.code_key,
  originalUrl: row.original_url,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
});

/**
 * A `LinkStore` on PostgreSQL, for running several server instances against one database. It
 * migrates its tables at start (safe when instances start together) and makes `create` a single
 * `INSERT ... ON CONFLICT` statement, so the database, not the instances, decides who wins a code.
 */
export async function createPostgresLinkStore(options: PostgresLinkStoreOptions): Promise<LinkStore> {
  const prefix = options.schema === undefined ? '' : `${pg.escapeIdentifier(options.schema)}.`;
  const links = `${prefix}links`;
  const versions = `${prefix}linklet_schema_version`;
  // Append-only: entry i brings the schema to version i + 1. Never edit a released entry.
  const migrations = [
    `CREATE TABLE IF NOT EXISTS ${links} (code_key text PRIMARY KEY, code text NOT NULL,
       original_url text NOT NULL, created_at bigint NOT NULL, expires_at bigint NOT NULL)`,
  ];

  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? 10,
    // Fail a request (and a health check) instead of hanging when the server is unreachable.
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection dropped by the server (restart, failover) would otherwise crash the
  // process; the pool discards it and the next query reconnects or reports the failure.
  pool.on('error', () => {});

  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(
      `Cannot connect to PostgreSQL at ${describeTarget(options.connectionString)}: ${(error as Error).message}. ` +
        'Check the connection string (host, port, user, password, database) and that PostgreSQL is running and reachable.',
      { cause: error },
    );
  }
  try {
    await client.query('BEGIN');
    // Held until COMMIT/ROLLBACK: concurrent `IF NOT EXISTS` DDL can still collide on the catalogs.
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    if (options.schema !== undefined) {
      // Checked first because CREATE SCHEMA IF NOT EXISTS demands database CREATE rights even
      // when the schema exists, and an operator may have pre-created it for a restricted role.
      const found = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [options.schema]);
      if (found.rowCount === 0) await client.query(`CREATE SCHEMA ${pg.escapeIdentifier(options.schema)}`);
    }
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${versions} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const current =
      (await client.query<{ v: number }>(`SELECT coalesce(max(version), 0)::int AS v FROM ${versions}`)).rows[0]?.v ??
      0;
    if (current > migrations.length) {
      throw new Error(
        `The database schema is at version ${current}, newer than this Linklet knows (${migrations.length}); upgrade Linklet.`,
      );
    }
    for (let version = current + 1; version <= migrations.length; version++) {
      await client.query(migrations[version - 1] as string);
      await client.query(`INSERT INTO ${versions} (version) VALUES ($1)`, [version]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
    await pool.end().catch(() => {});
    throw error;
  }
  client.release();
  const columns = 'code_key, code, original_url, created_at, expires_at';
  const upsert = `INSERT INTO ${links} AS l (${columns}) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (code_key) DO UPDATE SET code = EXCLUDED.code, original_url = EXCLUDED.original_url,
      created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
    WHERE l.expires_at <= $6
    RETURNING ${columns}`;

  return {
    async create(link: Link, now: number): Promise<CreateLinkResult> {
      for (let attempt = 0; attempt < MAX_CREATE_ATTEMPTS; attempt++) {
        // Autocommitted; with the default synchronous_commit=on it is flushed before pg answers.
        const inserted = await pool.query<LinkRow>(upsert, [
          link.codeKey,
          link.code,
          link.originalUrl,
          link.createdAt,
          link.expiresAt,
          now,
        ]);
        const row = inserted.rows[0];
        if (row) return { created: true, link: toLink(row) };
        // The holder was active when the upsert looked; read its expiration separately, since
        // RETURNING says nothing about rows the WHERE clause left alone.
        const holder = await pool.query<{ expires_at: string }>(`SELECT expires_at FROM ${links} WHERE code_key = $1`, [
          link.codeKey,
        ]);
        const expiresAt = holder.rows[0] && Number(holder.rows[0].expires_at);
        // Gone (deleted) or no longer active (replaced by an expired link) in between: try again.
        if (expiresAt !== undefined && now < expiresAt) return { created: false, holderExpiresAt: expiresAt };
      }
      throw new Error(`Creating code key ${JSON.stringify(link.codeKey)} kept racing other writers; giving up.`);
    },
    async findByCodeKey(codeKey: string) {
      const result = await pool.query<LinkRow>(`SELECT ${columns} FROM ${links} WHERE code_key = $1`, [codeKey]);
      return result.rows[0] && toLink(result.rows[0]);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
}

/** The connection target without its password, fit for an error message or a log. */
function describeTarget(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'the configured connection string';
  }
}
