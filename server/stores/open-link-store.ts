import type { DatabaseConfig } from '../process/config.js';
import { postgresFaultOf } from './postgres/postgres-errors.js';
import type { OnMigrated } from './schema-version.js';
import type { ServerLinkStore } from './server-link-store.js';
import { sqliteFaultOf } from './sqlite/sqlite-errors.js';
import { createSqliteLinkStore } from './sqlite/sqlite-link-store.js';
import { withFaultsAsUnavailable } from './store-faults.js';

export interface OpenLinkStoreOptions {
  /** PostgreSQL connections of this process (`DATABASE_POOL_SIZE`). */
  poolSize?: number;
  /** Told of store failures no request sees (a dropped idle PostgreSQL connection). */
  onBackgroundError?: (error: Error) => void;
  /** Told of each migration applied at this open, so the operator sees the upgrade happen. */
  onMigrated?: OnMigrated;
}

/**
 * Opens the store `DATABASE_URL` names, its passing failures answered as 503 (see
 * `withFaultsAsUnavailable`); PostgreSQL's driver is loaded only when it is used.
 */
export async function openLinkStore(
  database: DatabaseConfig,
  options: OpenLinkStoreOptions = {},
): Promise<ServerLinkStore> {
  if (database.kind === 'sqlite') {
    const store = createSqliteLinkStore(database.path, { onMigrated: options.onMigrated });
    return withFaultsAsUnavailable(store, sqliteFaultOf);
  }
  const { createPostgresLinkStore } = await import('./postgres/postgres-link-store.js');
  const store = await createPostgresLinkStore({
    connectionString: database.connectionString,
    poolSize: options.poolSize,
    onBackgroundError: options.onBackgroundError,
    onMigrated: options.onMigrated,
  });
  return withFaultsAsUnavailable(store, postgresFaultOf);
}
