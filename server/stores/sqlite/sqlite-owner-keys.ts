import type Database from 'better-sqlite3';
import {
  KEY_TOUCH_INTERVAL_MS,
  type LinkManagementStore,
  type OwnerKey,
} from '../../../core/store/link-management-store.js';

/** The management operations on owners and their API keys, apart from those on links. */
import type { OwnerKeyOperation } from '../link-management-parts.js';

type KeyRow = {
  id: number;
  owner_id: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
};
const KEY_SELECT = `SELECT k.id, k.owner_id, o.name, k.created_at, k.last_used_at, k.revoked_at
  FROM api_keys k JOIN owners o ON o.id = k.owner_id`;
const toKey = (row: KeyRow): OwnerKey => {
  const key: OwnerKey = {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    createdAt: row.created_at,
    revoked: row.revoked_at !== null,
  };
  if (row.last_used_at !== null) key.lastUsedAt = row.last_used_at;
  return key;
};

/**
 * Owners and their API keys in a Linklet SQLite database: an owner is made with its first key,
 * and a key is kept by its hash only. They run on the main connection (a key is looked up once
 * per management request, and `touchKey` writes at most once a minute per key).
 */
export function createSqliteOwnerKeys(db: Database.Database): Pick<LinkManagementStore, OwnerKeyOperation> {
  const insertOwner = db.prepare('INSERT INTO owners (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING');
  const ownerIdOf = db.prepare('SELECT id FROM owners WHERE name = ?').pluck();
  const insertKey = db.prepare('INSERT INTO api_keys (owner_id, key_hash, created_at) VALUES (?, ?, ?)');
  const allKeys = db.prepare(`${KEY_SELECT} ORDER BY k.id`);
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?');
  const unrevokedByHash = db.prepare(`${KEY_SELECT} WHERE k.key_hash = ? AND k.revoked_at IS NULL`);
  const touch = db.prepare(
    'UPDATE api_keys SET last_used_at = @now WHERE id = @id AND (last_used_at IS NULL OR last_used_at <= @since)',
  );
  const createKey = db.transaction((name: string, keyHash: string, now: number): OwnerKey => {
    insertOwner.run(name, now);
    const ownerId = ownerIdOf.get(name) as number;
    const { lastInsertRowid } = insertKey.run(ownerId, keyHash, now);
    return { id: Number(lastInsertRowid), ownerId, name, createdAt: now, revoked: false };
  });

  return {
    async createKey(name, keyHash, now) {
      return createKey.immediate(name, keyHash, now);
    },
    async listKeys() {
      return (allKeys.all() as KeyRow[]).map(toKey);
    },
    async revokeKey(id, now) {
      return revoke.run(now, id).changes === 1;
    },
    async findKeyByHash(keyHash) {
      const row = unrevokedByHash.get(keyHash) as KeyRow | undefined;
      return row && toKey(row);
    },
    async touchKey(id, now) {
      touch.run({ id, now, since: now - KEY_TOUCH_INTERVAL_MS });
    },
  };
}
