import { codeKey } from '../core/code.js';
import type { LinkStore } from '../core/link-store.js';
import type { History } from './history.js';
import type { HistoryEntry } from './history-entry.js';

export interface ImportReport {
  added: number;
  /** Already in this history (same id): kept as they are. */
  skipped: number;
  /** Local links whose code another local link holds here: recorded, but they open the other link. */
  conflicts: number;
}

/**
 * Adds exported entries to the history. Local links are also given back to the bundled backend,
 * so they open in this browser as they did in the one they came from.
 */
export async function importHistory(
  entries: HistoryEntry[],
  deps: { history: History; store: LinkStore; now: number },
): Promise<ImportReport> {
  const report: ImportReport = { added: 0, skipped: 0, conflicts: 0 };
  for (const entry of entries) {
    if (await deps.history.get(entry.id)) {
      report.skipped++;
      continue;
    }
    if (entry.status === 'local' && entry.expiresAt > deps.now) {
      const { code, originalUrl, createdAt, expiresAt } = entry;
      const result = await deps.store.create(
        { code, codeKey: codeKey(code), originalUrl, createdAt, expiresAt },
        deps.now,
      );
      if (!result.created) report.conflicts++;
    }
    await deps.history.put(entry);
    report.added++;
  }
  return report;
}
