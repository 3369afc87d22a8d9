import type Database from 'better-sqlite3';

const RETRY_EVERY_MS = 20;

/**
 * Puts a database in WAL mode (it stays so: the mode is kept in the file). Two processes that open
 * a new file at the same moment can both try the switch; SQLite then answers SQLITE_BUSY at once,
 * without calling the busy handler, so the switch is retried here until `timeoutMs` has passed.
 */
export function switchToWal(db: Database.Database, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      // A synchronous pause: opening runs once at startup, before the server serves anything.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_EVERY_MS);
    }
  }
}
