import type { StoreFault } from '../store-faults.js';

const BUSY: StoreFault = {
  message: 'The link store is busy (another process holds its write lock); try again shortly.',
  retryAfterSeconds: 2,
};
const READ_ONLY: StoreFault = {
  message: 'The link store is read-only right now, so no link can be made; try again later.',
  retryAfterSeconds: 30,
};
const DISK: StoreFault = {
  message: 'The link store cannot write to its disk (full or failing), so no link can be made; try again later.',
  retryAfterSeconds: 30,
};

/**
 * The SQLite result codes (primary and extended: `SQLITE_BUSY_TIMEOUT`, `SQLITE_IOERR_WRITE`, …)
 * that say the database cannot be written now but may be later: a lock held past the busy
 * timeout, a read-only file, directory or file system, a full or failing disk. Anything else is
 * unexpected (a 500).
 */
export function sqliteFaultOf(error: unknown): StoreFault | undefined {
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
