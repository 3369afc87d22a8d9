import Database from 'better-sqlite3';
import { LINK_COLUMNS, type LinkRow } from './sqlite-link-row.js';

/**
 * Redirect reads on a connection of their own, inside one read transaction per turn of the event
 * loop (begun by the turn's first read, ended by `setImmediate` or sooner by `end`). An
 * autocommit read takes and drops WAL locks and stats the file each time (two `fcntl` and an
 * `fstat`): a third of a miss's cost at a million links. The snapshot is let go after every
 * create's commit, every change made here and before every change another process made is told,
 * so no acknowledged change is ever read as it was. An in-memory database reads in place.
 */
export function createSqliteLinkReads(path: string, busyTimeoutMs: number, db: Database.Database) {
  const reader = path === ':memory:' ? undefined : new Database(path, { fileMustExist: true });
  reader?.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  const select = (reader ?? db)
    .prepare<[string], LinkRow>(`SELECT ${LINK_COLUMNS} FROM links WHERE code_key = ?`)
    .raw();
  const begin = reader?.prepare('BEGIN');
  const commit = reader?.prepare('COMMIT');
  let reading = false;
  const end = () => {
    if (!reading) return;
    reading = false;
    if (reader?.inTransaction) commit?.run();
  };
  return {
    byCodeKey(codeKey: string): LinkRow | undefined {
      if (begin && !reading) {
        begin.run();
        reading = true;
        setImmediate(end);
      }
      return select.get(codeKey);
    },
    end,
    close() {
      end();
      reader?.close();
    },
  };
}
