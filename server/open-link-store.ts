import type { LinkStore } from '../core/link-store.js';
import type { DatabaseConfig } from './config.js';
import { createSqliteLinkStore } from './sqlite-link-store.js';

/** Opens the store `DATABASE_URL` names; PostgreSQL's driver is loaded only when it is used. */
export async function openLinkStore(database: DatabaseConfig): Promise<LinkStore> {
  if (database.kind === 'sqlite') return createSqliteLinkStore(database.path);
  const { createPostgresLinkStore } = await import('./postgres-link-store.js');
  return createPostgresLinkStore({ connectionString: database.connectionString });
}
