import { LinkletError } from '../core/errors.js';
import type { LinkStore } from '../core/link-store.js';

/** What a client is told, and when to try again, for each kind of SQLite failure that passes. */
interface Fault {
  message: string;
  retryAfterSeconds: number;
}

const BUSY: Fault = {
  message: 'The link store is busy (another process holds its write lock); try again shortly.',
  retryAfterSeconds: 2,
};
const READ_ONLY: Fault = {
  message: 'The link store is read-only right now, so no link can be made; try again later.',
  retryAfterSeconds: 30,
};
const DISK: Fault = {
  message: 'The link store cannot write to its disk (full or failing), so no link can be made; try again later.',
  retryAfterSeconds: 30,
};

/**
 * The SQLite result codes (primary and extended: `SQLITE_BUSY_TIMEOUT`, `SQLITE_IOERR_WRITE`, …)
 * that say the database cannot be written now but may be later: a lock held past the busy
 * timeout, a read-only file, directory or file system, a full or failing disk. Anything else is
 * unexpected (a 500).
 */
export function sqliteFaultOf(error: unknown): Fault | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (/^SQLITE_(BUSY|LOCKED|PROTOCOL)(_|$)/.test(code)) return BUSY;
  if (/^SQLITE_READONLY(_|$)/.test(code)) return READ_ONLY;
  if (/^SQLITE_(IOERR|FULL|CANTOPEN)(_|$)/.test(code)) return DISK;
  return undefined;
}

/** Added to the message of a SQLite failure that stops the server from starting. */
export const startHint =
  '. The database file, its folder and its -wal and -shm files must be writable by this user, on a disk with free space.';

const asUnavailable = (error: unknown): never => {
  const fault = sqliteFaultOf(error);
  if (fault === undefined) throw error;
  throw new LinkletError('unavailable', fault.message, { cause: error, retryAfterSeconds: fault.retryAfterSeconds });
};

/**
 * A SQLite store whose passing failures are answered as 503 with `Retry-After` (and logged with
 * their cause), never as a 500. Nothing is lost by it: a create that fails was never committed,
 * and its client was never told it succeeded.
 */
export function withSqliteFaultsAsUnavailable(store: LinkStore): LinkStore {
  return {
    create: (link, now) => store.create(link, now).catch(asUnavailable),
    findByCodeKey: (codeKey) => store.findByCodeKey(codeKey).catch(asUnavailable),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
