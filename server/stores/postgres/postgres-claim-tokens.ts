import type pg from 'pg';
import type { ClaimState, ManagedLinkStore } from '../../../core/store/link-management-store.js';
import type { LinkClaimOperation } from '../link-management-parts.js';
import { withReconnect } from './postgres-errors.js';
import { type LinkRow, linkFromRow, MANAGED_LINK_COLUMNS } from './postgres-link-row.js';
import { fromMs } from './postgres-sql.js';

/**
 * Links made without a key, made their maker's (schema 14's `claim_token_hash`). The claim is one
 * UPDATE that is its own compare-and-set (still no owner, still this hash), so two claims of one
 * link, on any instances, cannot both win; its owner change fires the table's change trigger as
 * any edit does. The read is retried on a fresh connection as redirects are; the write is not.
 */
export function createPostgresClaimTokens(pool: pg.Pool, prefix: string): Pick<ManagedLinkStore, LinkClaimOperation> {
  const links = `${prefix}links`;
  return {
    async claimStateOf(codeKey) {
      const { rows } = await withReconnect(() =>
        pool.query<{ owner_id: string | null; claim_token_hash: string | null }>(
          `SELECT owner_id, claim_token_hash FROM ${links} WHERE code_key = $1`,
          [codeKey],
        ),
      );
      const row = rows[0];
      if (row === undefined) return undefined;
      const state: ClaimState = {};
      if (row.owner_id !== null) state.ownerId = Number(row.owner_id);
      if (row.claim_token_hash !== null) state.claimTokenHash = row.claim_token_hash;
      return state;
    },
    async claimLink(codeKey, hash, ownerId, now) {
      const { rows } = await pool.query<LinkRow>(
        `UPDATE ${links} SET owner_id = $3, claim_token_hash = NULL,
           updated_at = greatest(${fromMs('$4')}, updated_at + interval '1 millisecond')
         WHERE code_key = $1 AND owner_id IS NULL AND claim_token_hash = $2
         RETURNING ${MANAGED_LINK_COLUMNS}`,
        [codeKey, hash, ownerId, now],
      );
      return rows[0] && linkFromRow(rows[0]);
    },
  };
}
