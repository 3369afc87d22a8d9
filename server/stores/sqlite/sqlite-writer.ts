import type Database from 'better-sqlite3';
import { visitPackerOf } from '../../clicks/packed-visits.js';
import {
  CLAIM_STATEMENTS,
  type ClaimItem,
  type ClaimOutcome,
  type ClaimSql,
  createBatchCommitter,
} from './sqlite-claims.js';
import {
  CLICK_COMMITTER_ARGS,
  type ClickCommitterArgs,
  createClickCommitter,
  type SqliteClickBatch,
} from './sqlite-clicks.js';
import { startWriterThread } from './writer-thread.js';

/** What the writer is posted: a batch of creates, or one batch of clicks alone. */
export type WriterItem = ClaimItem | { clicks: SqliteClickBatch };
type WriterArgs = { claims: ClaimSql; clicks: ClickCommitterArgs };
const WRITER_ARGS: WriterArgs = { claims: CLAIM_STATEMENTS, clicks: CLICK_COMMITTER_ARGS };
type CommitWriterBatch = (batch: WriterItem[]) => Array<ClaimOutcome | null>;

/** The writer's committer as source text: creates and clicks, each kind its own transaction. */
const WRITER_SETUP = `(db, args) => {
  const claims = (${createBatchCommitter.toString()})(db, args.claims);
  const clicks = (${createClickCommitter.toString()})(db, args.clicks, ${visitPackerOf.toString()});
  return (batch) => (batch.length === 1 && 'clicks' in batch[0] ? [clicks(batch[0].clicks)] : claims(batch));
}`;
/** What `WRITER_SETUP` makes, made here: an in-memory database commits on its only connection. */
const startCommitter = (db: Database.Database, args: WriterArgs): CommitWriterBatch => {
  const claims = createBatchCommitter(db, args.claims);
  const clicks = createClickCommitter(db, args.clicks, visitPackerOf);
  return (batch) => {
    const first = batch[0];
    return batch.length === 1 && first && 'clicks' in first ? [clicks(first.clicks)] : claims(batch as ClaimItem[]);
  };
};

/**
 * The store's one writer of creates and clicks: a thread with a connection of its own (so a
 * commit's fsync never stalls the redirects), or, with `pragmas` undefined, the store's own
 * connection (an in-memory database has only the one).
 */
export function startSqliteWriter(db: Database.Database, path: string, pragmas: string[] | undefined) {
  if (pragmas === undefined) {
    const commitInPlace = startCommitter(db, WRITER_ARGS);
    return {
      commit: async (batch: WriterItem[]) => commitInPlace(batch),
      ping: async () => {},
      close: async () => {},
    };
  }
  const thread = startWriterThread<WriterItem, ClaimOutcome | null>({
    path,
    pragmas,
    setup: WRITER_SETUP,
    args: WRITER_ARGS,
  });
  return { commit: thread.commit, ping: thread.ping, close: thread.close };
}
