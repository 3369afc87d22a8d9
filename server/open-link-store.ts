import type { LinkStore } from '../core/link-store.js';
import type { DatabaseConfig } from './config.js';
import { withSqliteFaultsAsUnavailable } from './sqlite-faults.js';
import { createSqliteLinkStore } from './sqlite-link-store.js';

export interface OpenLinkStoreOptions {
  /** PostgreSQL connections of this process (`DATABASE_POOL_SIZE`). */
  poolSize?: number;
}

/** Opens the store `DATABASE_URL` names; PostgreSQL's driver is loaded only when it is used. */
export async function openLinkStore(database: DatabaseConfig, options: OpenLinkStoreOptions = {}): Promise<LinkStore> {
  if (database.kind === 'sqlite') return withSqliteFaultsAsUnavailable(createSqliteLinkStore(database.path));
  const { createPostgresLinkStore } = await import('./postgres-link-store.js');
  return createPostgresLinkStore({ connectionString: database.connectionString, poolSize: options.poolSize });
}
