import { realpathSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The files SQLite keeps beside a database while it is in use (WAL mode, or a rollback journal). */
const SIDECARS = ['', '-wal', '-shm', '-journal'] as const;

/** `path` with every symbolic link resolved, as far as it exists (a file yet to be made keeps its name). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const folder = dirname(path);
    return folder === path ? path : join(realPath(folder), basename(path));
  }
}

const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

/**
 * Which of the database's own files `destination` is (`database`, `-wal`, …), or `undefined`
 * when it is none. Writing a backup onto one of them while a server has it open corrupts the
 * database, so it is found by every name it may go by: the path as given, its real path through
 * symbolic links (a linked folder), and its inode (a hard link).
 */
export function liveFileAt(database: string, destination: string): string | undefined {
  const target = realPath(destination);
  const targetStats = statSync(destination, { throwIfNoEntry: false });
  for (const suffix of SIDECARS) {
    const names = new Set([`${database}${suffix}`, realPath(`${database}${suffix}`), `${realPath(database)}${suffix}`]);
    if ([...names].some((name) => realPath(name) === target)) return `database${suffix}`;
    if (targetStats === undefined) continue;
    for (const name of names) {
      const stats = statSync(name, { throwIfNoEntry: false });
      if (stats !== undefined && sameFile(stats, targetStats)) return `database${suffix}`;
    }
  }
  return undefined;
}
