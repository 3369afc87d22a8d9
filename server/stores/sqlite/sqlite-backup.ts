import { closeSync, constants, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { liveFileAt } from './live-files.js';

/** Why a backup was not written; its message says what to do. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupOptions {
  /** Replace a file already at the destination (the old one stays until the new one is complete). */
  overwrite?: boolean;
  /** How long to wait for a lock held by a server (a checkpoint, a schema change). */
  busyTimeoutMs?: number;
}

/**
 * Writes a consistent copy of the SQLite database at `source` to `destination` while servers
 * keep serving and writing it. `VACUUM INTO` reads the whole database in one read transaction:
 * in WAL mode that is a snapshot which writers never wait for, and unlike the page-by-page backup
 * API it does not start over each time another process commits, so it finishes under load.
 * The copy is written beside the destination and renamed onto it only once it is complete and
 * passes `PRAGMA integrity_check`, so a failed or interrupted backup never leaves a half file
 * where a good backup is expected. A destination that is the database or one of its `-wal`,
 * `-shm`, `-journal` files (by any path or hard link) is refused before anything is written.
 */
export function backupSqlite(source: string, destination: string, options: BackupOptions = {}): void {
  if (!existsSync(source)) {
    throw new BackupError(`There is no SQLite database at ${source}; set DATABASE_URL as the server has it.`);
  }
  const live = liveFileAt(source, destination);
  if (live !== undefined) {
    const file = live === 'database' ? 'the database itself' : `the database's ${live.slice('database'.length)} file`;
    throw new BackupError(
      `${destination} is ${file} (${source}); a backup written there would corrupt it. Write the backup to another file, outside the database's own files.`,
    );
  }
  if (existsSync(destination) && !options.overwrite) {
    throw new BackupError(`${destination} exists already; choose a new file name, or add --force to replace it.`);
  }
  checkFolder(dirname(destination));
  const partial = join(dirname(destination), `.${basename(destination)}.partial-${process.pid}`);
  try {
    // Links can be private: the copy is readable by its owner only, like the database (0600).
    closeSync(openSync(partial, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
    const db = new Database(source, { fileMustExist: true });
    try {
      db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? 10_000}`);
      db.prepare('VACUUM INTO ?').run(partial);
    } finally {
      db.close();
    }
    checkIntegrity(partial);
    syncToDisk(partial);
    renameSync(partial, destination);
    syncToDisk(dirname(destination));
  } catch (error) {
    rmSync(partial, { force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The backup of ${source} to ${destination} failed: ${(error as Error).message}`);
  }
}

/**
 * The destination's folder must exist: the copy is first written there under a temporary name,
 * and the error of that write would name the temporary file, not the folder the user gave.
 */
function checkFolder(folder: string): void {
  const found = statSync(folder, { throwIfNoEntry: false });
  if (found === undefined) {
    throw new BackupError(`The folder ${folder} does not exist; create it (mkdir -p) or pick another path for FILE.`);
  }
  if (!found.isDirectory()) throw new BackupError(`${folder} is not a folder; pick another path for FILE.`);
}

/** The copy is read back in full once, so a backup that would not restore is reported now. */
function checkIntegrity(file: string): void {
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const result = copy.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`The copy failed its integrity check (${String(result)}); try again.`);
  } finally {
    copy.close();
  }
}

/** A backup is only one if it survives a power cut right after the command says it is done. */
function syncToDisk(path: string): void {
  const fd = openSync(path, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
