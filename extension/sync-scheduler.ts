import { browser } from 'wxt/browser';
import type { FetchLike } from './api-client.js';
import type { History } from './history.js';
import { nextSyncAt, type SyncReport, syncPending } from './sync.js';

export const SYNC_ALARM = 'linklet-sync';
/** Chromium does not fire alarms sooner than 30 s ahead. */
const MIN_ALARM_DELAY_MS = 30_000;

export interface SyncScheduler {
  /** Syncs now (all pending with `force`, due ones otherwise) and sets the alarm for the next one. */
  run(options?: { force?: boolean }): Promise<SyncReport>;
}

/**
 * Runs syncs one at a time: two overlapping pushes of one entry would make the second look like a
 * conflict with the first. The alarm survives the service worker being stopped between attempts.
 */
export function createSyncScheduler(history: History, serverFetch: FetchLike = fetch): SyncScheduler {
  let last: Promise<unknown> = Promise.resolve();
  return {
    run(options = {}) {
      const current = last.then(async () => {
        const report = await syncPending({ history, serverFetch }, options);
        await scheduleAlarm(history);
        return report;
      });
      last = current.catch(() => undefined);
      return current;
    },
  };
}

async function scheduleAlarm(history: History): Promise<void> {
  const due = await nextSyncAt(history);
  if (due === undefined) {
    await browser.alarms.clear(SYNC_ALARM);
    return;
  }
  await browser.alarms.create(SYNC_ALARM, { when: Math.max(due, Date.now() + MIN_ALARM_DELAY_MS) });
}
