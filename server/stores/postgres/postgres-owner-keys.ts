import type pg from 'pg';
import {
  KEY_TOUCH_INTERVAL_MS,
  type LinkManagementStore,
  type OwnerKey,
} from '../../../core/store/link-management-store.js';
/** The management operations on owners and their API keys, apart from those on links. */
import type { OwnerKeyOperation } from '../link-management-parts.js';
import { withReconnect } from './postgres-errors.js';
import { fromMs, toMs } from './postgres-sql.js';

interface KeyRow {
  id: string;
  owner_id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked: boolean;
}
const toKey = (row: KeyRow): OwnerKey => {
  const key: OwnerKey = {
    id: Number(row.id),
    ownerId: Number(row.owner_id),
    name: row.name,
    createdAt: Number(row.created_at),
    revoked: row.revoked,
  };
  if (row.last_used_at !== null) key.lastUsedAt = Number(row.last_used_at);
  return key;
};

/**
 * Owners and their API keys on PostgreSQL: an owner is made with its first key (one statement,
 * so instances making the same owner at once agree on it), and a key is kept by its hash only.
 * Reads are retried on a fresh connection; writes are not.
 */
export function createPostgresOwnerKeys(pool: pg.Pool, prefix: string): Pick<LinkManagementStore, OwnerKeyOperation> {
  const t = (table: string) => `${prefix}${table}`;
  const keySelect = `SELECT k.id, k.owner_id, o.name, ${toMs('k.created_at')} AS created_at,
      ${toMs('k.last_used_at')} AS last_used_at, k.revoked_at IS NOT NULL AS revoked
    FROM ${t('api_keys')} k JOIN ${t('owners')} o ON o.id = k.owner_id`;
  const read = <R extends pg.QueryResultRow>(text: string, values: unknown[]) =>
    withReconnect(() => pool.query<R>(text, values));

  return {
    async createKey(name, keyHash, now) {
      const { rows } = await pool.query<{ id: string; owner_id: string }>(
        `WITH owner AS (
           INSERT INTO ${t('owners')} (name, created_at) VALUES ($1, ${fromMs('$3')})
           ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id)
         INSERT INTO ${t('api_keys')} (owner_id, key_hash, created_at) SELECT id, $2, ${fromMs('$3')} FROM owner
         RETURNING id, owner_id`,
        [name, keyHash, now],
      );
      const row = rows[0] as { id: string; owner_id: string };
      return { id: Number(row.id), ownerId: Number(row.owner_id), name, createdAt: now, revoked: false };
    },
    async listKeys() {
      return (await read<KeyRow>(`${keySelect} ORDER BY k.id`, [])).rows.map(toKey);
    },
    async revokeKey(id, now) {
      const result = await pool.query(
        `UPDATE ${t('api_keys')} SET revoked_at = coalesce(revoked_at, ${fromMs('$2')}) WHERE id = $1`,
        [id, now],
      );
      return result.rowCount === 1;
    },
    async findKeyByHash(keyHash) {
      const { rows } = await read<KeyRow>(`${keySelect} WHERE k.key_hash = $1 AND k.revoked_at IS NULL`, [keyHash]);
      return rows[0] && toKey(rows[0]);
    },
    async touchKey(id, now) {
      await pool.query(
        `UPDATE ${t('api_keys')} SET last_used_at = ${fromMs('$2')}
         WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= ${fromMs('$3')})`,
        [id, now, now - KEY_TOUCH_INTERVAL_MS],
      );
    },
  };
}
