import type Database from 'better-sqlite3';
import type { ClaimState, ManagedLinkStore } from '../../../core/store/link-management-store.js';
import type { LinkClaimOperation } from '../link-management-parts.js';
import { CHANGE_LOG_KEEP_MS, PRUNE_CHANGE_LOG_SQL } from './sqlite-change-feed.js';
import { type LinkRow, linkFromRow, MANAGED_LINK_COLUMNS } from './sqlite-link-row.js';

/**
 * Links made without a key, made their maker's (schema 14's `claim_token_hash`). The claim runs
 * on the main connection, as the other management writes do: one IMMEDIATE transaction whose
 * UPDATE is its own compare-and-set (still no owner, still this hash), so two claims of one link
 * cannot both win.
 */
export function createSqliteClaimTokens(db: Database.Database): Pick<ManagedLinkStore, LinkClaimOperation> {
  const stateOf = db.prepare<[string], { owner_id: number | null; claim_token_hash: string | null }>(
    'SELECT owner_id, claim_token_hash FROM links WHERE code_key = ?',
  );
  const claim = db
    .prepare(
      `UPDATE links SET owner_id = @ownerId, claim_token_hash = NULL, updated_at = max(@now, updated_at + 1)
       WHERE code_key = @codeKey AND owner_id IS NULL AND claim_token_hash = @hash
       RETURNING ${MANAGED_LINK_COLUMNS}`,
    )
    .raw();
  const pruneChangeLog = db.prepare(PRUNE_CHANGE_LOG_SQL);
  const claimLink = db.transaction((codeKey: string, hash: string, ownerId: number, now: number) => {
    const row = claim.get({ codeKey, hash, ownerId, now }) as LinkRow | undefined;
    if (row === undefined) return undefined;
    pruneChangeLog.run(CHANGE_LOG_KEEP_MS);
    return linkFromRow(codeKey, row);
  });
  return {
    async claimStateOf(codeKey) {
      const row = stateOf.get(codeKey);
      if (row === undefined) return undefined;
      const state: ClaimState = {};
      if (row.owner_id !== null) state.ownerId = row.owner_id;
      if (row.claim_token_hash !== null) state.claimTokenHash = row.claim_token_hash;
      return state;
    },
    async claimLink(codeKey, hash, ownerId, now) {
      return claimLink.immediate(codeKey, hash, ownerId, now);
    },
  };
}
