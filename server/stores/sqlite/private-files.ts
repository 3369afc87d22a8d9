import { closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Owner only: links can be private (unlisted documents, invitations), so others may not read them. */
const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_FOLDER_MODE = 0o700;

/**
 * Makes the folder of a new database (0700) and the database file itself (0600) before SQLite
 * opens it. SQLite would create the file 0644 under the usual umask; it gives the `-wal` and
 * `-shm` files the mode of the database file, so they come out 0600 too. An existing folder or
 * file is left as its owner set it; any failure here is left for SQLite to report when it opens
 * the file, with its own error code (a read-only folder, say).
 */
export function createPrivateDatabaseFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  try {
    // O_EXCL: never touch a file that is there already (another process may be creating it).
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, PRIVATE_FILE_MODE));
  } catch {
    // There already, or not creatable: SQLite opens it or says why not.
  }
}
