import { codeKey } from '../../core/rules/code.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { rebind } from '../sync/push-pending.js';
import type { History } from './history.js';
import type { HistoryEntry } from './history-entry.js';

export interface ImportReport {
  added: number;
  /** Already in this history (the same id, or the same local link): kept as they are. */
  skipped: number;
  /** Local links whose code another local link holds here: recorded, but they open the other link. */
  conflicts: number;
  /** Pending links for another server, now waiting for the configured one with the same code. */
  rebound: number;
  /** Pending links for another server, left out because no server is configured here. */
  dropped: number;
}

export interface ImportDeps {
  history: History;
  store: LinkStore;
  now: number;
  /** The configured companion server, '' in local mode. */
  server: string;
  /** Where this browser's local links open (`openPageBase()`). */
  openPageBase: string;
}

/**
 * Adds exported entries (already checked by `parseHistoryFile`) to the history. Local links are
 * given back to the bundled backend, with this browser's short URL, so they open here as they
 * did in the one they came from. A file must never make the extension talk to a server the user
 * did not set: pending links for another server are re-bound to the configured one, or dropped
 * in local mode, and the report says how many.
 */
export async function importHistory(entries: HistoryEntry[], deps: ImportDeps): Promise<ImportReport> {
  const report: ImportReport = { added: 0, skipped: 0, conflicts: 0, rebound: 0, dropped: 0 };
  for (const incoming of entries) {
    if (await deps.history.get(incoming.id)) {
      report.skipped++;
      continue;
    }
    let entry = incoming;
    if (entry.status === 'pending' && entry.server !== deps.server) {
      if (deps.server === '') {
        report.dropped++;
        continue;
      }
      entry = rebind(entry, deps.server, deps.now);
      report.rebound++;
    }
    if (entry.status === 'local') {
      entry = { ...entry, shortUrl: `${deps.openPageBase}/${entry.code}/` };
      if (entry.expiresAt > deps.now) {
        const { code, originalUrl, createdAt, expiresAt } = entry;
        const result = await deps.store.create(
          { code, codeKey: codeKey(code), originalUrl, createdAt, expiresAt },
          deps.now,
        );
        if (!result.created) {
          // The same link already here (the file imported before under other ids, or as a links
          // file): nothing to add, and nothing taken.
          const holder = await deps.store.findByCodeKey(codeKey(code));
          if (holder?.originalUrl === originalUrl) {
            if (await holdsLocal(deps.history, code)) {
              report.skipped++;
              continue;
            }
          } else report.conflicts++;
        }
      }
    }
    await deps.history.put(entry);
    report.added++;
  }
  return report;
}

/** Whether the history has a local link with `code` (the one its store holds). */
async function holdsLocal(history: History, code: string): Promise<boolean> {
  return (await history.list()).some((entry) => entry.status === 'local' && entry.code === code);
}
