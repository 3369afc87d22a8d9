import type Database from 'better-sqlite3';
import type { CreateLinkResult, Link } from '../../../core/store/link-store.js';
import { CHANGE_LOG_KEEP_MS, PRUNE_CHANGE_LOG_SQL } from './sqlite-change-feed.js';

// One statement claims the code: insert, or take over a holder that has expired (its owner,
// changes and disabled flag go with it). The link gets a new id either way, so a retaken code
// never shows its previous holder's clicks (triggers drop its total and days: it starts from 0).
// `updated_at` is the creation time unless the link says otherwise (an import keeps its source's
// creation time but is a change made now). Parameters by position: binding sixteen by name cost
// the writer thread a lookup each per create.
const CLAIM_SQL = `INSERT INTO links (code_key, code, original_url, created_at, expires_at, owner_id, updated_at, disabled, id, password_hash, title, tags, redirect_rules, max_visits, valid_since, forward_query, claim_token_hash)
  VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (code_key) DO UPDATE SET
    code = excluded.code, original_url = excluded.original_url,
    created_at = excluded.created_at, expires_at = excluded.expires_at,
    owner_id = excluded.owner_id, updated_at = excluded.updated_at, disabled = 0, id = excluded.id,
    password_hash = excluded.password_hash, title = excluded.title, tags = excluded.tags,
    redirect_rules = excluded.redirect_rules, max_visits = excluded.max_visits,
    valid_since = excluded.valid_since, forward_query = excluded.forward_query,
    claim_token_hash = excluded.claim_token_hash
  WHERE links.expires_at <= ?`;
// Ids for a whole batch in one statement: the batch's claims take the ids up to the one returned.
const RESERVE_IDS_SQL = 'UPDATE link_ids SET last = last + ? RETURNING last';
const HOLDER_SQL = 'SELECT expires_at FROM links WHERE code_key = ?';

/** One create as the writer is posted it. */
export type ClaimItem = { link: Link; now: number };
/** The claim statements, handed to the writer thread with its setup (it imports nothing). */
export type ClaimSql = {
  claimSql: string;
  holderSql: string;
  reserveIdsSql: string;
  pruneChangesSql: string;
  changesKeepMs: number;
};
export const CLAIM_STATEMENTS: ClaimSql = {
  claimSql: CLAIM_SQL,
  holderSql: HOLDER_SQL,
  reserveIdsSql: RESERVE_IDS_SQL,
  pruneChangesSql: PRUNE_CHANGE_LOG_SQL,
  changesKeepMs: CHANGE_LOG_KEEP_MS,
};

/**
 * What a claim came to: made, or the holder's expiry. Not the link: the caller has it already,
 * and from the writer thread every result is copied back (a link each was a clone per create).
 */
export type ClaimOutcome = { created: true } | { created: false; holderExpiresAt: number };
type CommitBatch = (batch: ClaimItem[]) => ClaimOutcome[];

interface PendingCreate {
  link: Link;
  now: number;
  resolve: (result: CreateLinkResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit on one connection: the batch's claims run in one BEGIN IMMEDIATE transaction, in
 * order, each its own atomic statement, and the whole batch costs one fsync. A claim that retakes
 * an expired code updates its row, which the change log's trigger logs: so that creates alone
 * never grow the log without end, a batch prunes it once per keep time. It refers to nothing
 * outside itself, because the writer thread runs its source text (see writer-thread.ts).
 */
export function createBatchCommitter(
  db: Database.Database,
  { claimSql, holderSql, reserveIdsSql, pruneChangesSql, changesKeepMs }: ClaimSql,
): CommitBatch {
  const claim = db.prepare(claimSql);
  const holderExpiry = db.prepare(holderSql).pluck();
  const reserveIds = db.prepare(reserveIdsSql).pluck();
  const pruneChanges = db.prepare(pruneChangesSql);
  let prunedAt = Number.NEGATIVE_INFINITY;
  const made = { created: true } as const;
  const claimOrReport = (link: Link, now: number, id: number): ClaimOutcome => {
    const { codeKey, code, originalUrl, createdAt, expiresAt } = link;
    const updatedAt = link.updatedAt ?? createdAt;
    const ownerId = link.ownerId ?? null;
    const passwordHash = link.passwordHash ?? null;
    const title = link.title ?? null;
    // Inline (this runs as source text on the writer thread): `tagsToText`'s rule.
    const tags = link.tags && link.tags.length > 0 ? link.tags.join(' ') : null;
    // Inline too: `rulesToText`'s rule (the API hands over rules already in their stored shape).
    const rules = link.redirectRules && link.redirectRules.length > 0 ? JSON.stringify(link.redirectRules) : null;
    const claimed = claim.run(
      codeKey,
      code,
      originalUrl,
      createdAt,
      expiresAt,
      ownerId,
      updatedAt,
      id,
      passwordHash,
      title,
      tags,
      rules,
      link.maxVisits ?? null,
      link.validSince ?? null,
      link.forwardQuery === true ? 1 : 0,
      link.claimTokenHash ?? null,
      now,
    );
    if (claimed.changes === 1) return made;
    const holderExpiresAt = holderExpiry.get(link.codeKey) as number | undefined;
    if (holderExpiresAt === undefined) {
      throw new Error(`Link ${link.codeKey} neither inserted nor held; the database may be corrupt.`);
    }
    return { created: false, holderExpiresAt };
  };
  const transaction = db.transaction((batch: ClaimItem[]) => {
    const first = (reserveIds.get(batch.length) as number) - batch.length + 1;
    const outcomes = batch.map(({ link, now }, i) => claimOrReport(link, now, first + i));
    const now = (batch[0] as ClaimItem).now;
    if (now - prunedAt >= changesKeepMs) {
      pruneChanges.run(changesKeepMs);
      prunedAt = now;
    }
    return outcomes;
  });
  return (batch) => transaction.immediate(batch);
}

/** A made link as the store answers it: a copy, without the claim token's hash. */
function madeLink(link: Link): Link {
  if (link.claimTokenHash === undefined) return { ...link };
  const { claimTokenHash: _kept, ...made } = link;
  return made;
}

/**
 * Group commit of creates: those of one event-loop turn, and those that arrive while a commit is
 * under way, go together in the next `commit` (one transaction, one fsync for them all). No
 * caller hears back before the commit that holds its link; `onCommitted` runs first, so that the
 * next redirect read sees what was just acknowledged.
 */
export function createSqliteClaims(commit: (batch: ClaimItem[]) => Promise<ClaimOutcome[]>, onCommitted: () => void) {
  let pending: PendingCreate[] = [];
  let committing: Promise<void> | undefined;
  let scheduled = false;
  const commitBatch = async (batch: PendingCreate[]) => {
    const items = batch.map(({ link, now }) => ({ link, now }));
    try {
      const results = await commit(items);
      onCommitted();
      for (const [i, item] of batch.entries()) {
        const outcome = results[i] as ClaimOutcome;
        // The caller's link, copied so that the store keeps nothing the caller can change, and
        // without its claim token's hash, which no read gives back.
        item.resolve(outcome.created ? { created: true, link: madeLink(item.link) } : outcome);
      }
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  };
  // One batch in flight at a time; the creates that come in meanwhile form the next one.
  const flush = async (): Promise<void> => {
    scheduled = false;
    if (committing) return;
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      committing = commitBatch(batch);
      await committing;
    }
    committing = undefined;
  };
  return {
    create(link: Link, now: number): Promise<CreateLinkResult> {
      return new Promise((resolve, reject) => {
        pending.push({ link, now, resolve, reject });
        if (!scheduled && !committing) {
          // Gather the creates of this event-loop turn before committing.
          scheduled = true;
          setImmediate(() => void flush());
        }
      });
    },
    /** Commits the creates already asked for (a closing store drops none). */
    async drain(): Promise<void> {
      while (committing || pending.length > 0) await (committing ?? flush());
    },
  };
}
