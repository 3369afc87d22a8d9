import type Database from 'better-sqlite3';
import { type ChangeFeed, createListeners } from '../change-feed.js';

/** How long the change log keeps a change: far longer than any process takes to read it. */
export const CHANGE_LOG_KEEP_MS = 60_000;
/**
 * Drops changes older than the keep time (`?`, ms) on SQLite's clock, the one the triggers log
 * by. Run by every writer of changes (patch, delete, and a create batch, which may retake codes),
 * so the log stays a minute's changes long however the links change.
 */
export const PRUNE_CHANGE_LOG_SQL = `DELETE FROM link_changes
  WHERE changed_at < CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) - ?`;

/**
 * Other processes' patches and deletes on the same SQLite file, and edits made to it by hand (the
 * triggers on `links` log every update and delete), for this process to drop from its cache.
 * `PRAGMA data_version` (a counter in shared memory, microseconds to read) moves
 * whenever another connection commits; only then is the change log read past the last change
 * seen. A change log pruned past that point (a process stalled for a minute) is reported as
 * `lost`, and the cache is dropped whole, then at once as `restored`: the same poll caught up.
 */
export function createSqliteChangeFeed(db: Database.Database, pollMs = 100): ChangeFeed & { close(): void } {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const newer = db.prepare('SELECT seq, code_key FROM link_changes WHERE seq > ? ORDER BY seq');
  const latest = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'link_changes'").pluck();
  let timer: NodeJS.Timeout | undefined;
  let version = 0;
  let lastSeq = 0;

  const poll = () => {
    if (!db.open) return;
    try {
      const now = dataVersion.get() as number;
      if (now === version) return;
      version = now;
      const rows = newer.all(lastSeq) as Array<{ seq: number; code_key: string }>;
      const latestSeq = (latest.get() as number | undefined) ?? 0;
      const missed = latestSeq - lastSeq > rows.length;
      lastSeq = Math.max(latestSeq, rows.at(-1)?.seq ?? 0);
      if (missed) {
        // Anything may have changed in the gap, so caches drop everything; but this poll has read
        // up to the newest change, so the feed tells every change again from here on (without
        // `restored`, a cache would never cache again until the process restarted).
        listeners.emit({ kind: 'lost' });
        listeners.emit({ kind: 'restored' });
      } else if (rows.length > 0) listeners.emit({ kind: 'changed', codeKeys: rows.map((row) => row.code_key) });
    } catch {
      // A locked or failing file: the next beat tries again; until then nothing is known to have changed.
    }
  };
  const listeners = createListeners(
    () => {
      version = dataVersion.get() as number;
      lastSeq = (latest.get() as number | undefined) ?? 0;
      timer = setInterval(poll, pollMs);
      timer.unref();
    },
    () => clearInterval(timer),
  );
  return { subscribe: listeners.subscribe, close: () => clearInterval(timer) };
}
