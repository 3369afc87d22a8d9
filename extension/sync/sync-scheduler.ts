import { browser } from 'wxt/browser';
import type { FetchLike } from '../../client/fetch-like.js';
import type { History } from '../history/history.js';
import { loadSettings } from '../settings.js';
import { nextSyncAt, type SyncReport, syncPending } from './push-pending.js';
import { pushAndPull } from './two-way-sync.js';

export const SYNC_ALARM = 'linklet-sync';
/** Chromium does not fire alarms sooner than 30 s ahead. */
const MIN_ALARM_DELAY_MS = 30_000;
/** With an API key, how often the alarm pulls what other devices changed (and retries queued changes). */
export const PULL_EVERY_MS = 5 * 60_000;

export interface SyncScheduler {
  /** Syncs now (all pending with `force`, due ones otherwise) and sets the alarm for the next one. */
  run(options?: { force?: boolean }): Promise<SyncReport>;
}

export interface SchedulerOptions {
  /** The configured server ('' in local mode), read at each run: the setting may have changed. */
  server?: () => Promise<string>;
  /** The owner's API key ('' for none), read at each run too. */
  apiKey?: () => Promise<string>;
  serverFetch?: FetchLike;
  /** How long one request may take (`REQUEST_TIMEOUT_MS` when not given). */
  timeoutMs?: number;
}

/**
 * Runs syncs one at a time: two overlapping pushes of one entry would make the second look like a
 * conflict with the first. Every request has a deadline, so a server that never answers ends a
 * run (its links stay pending) instead of holding up every later one. The alarm survives the
 * service worker being stopped between attempts.
 */
export function createSyncScheduler(history: History, options: SchedulerOptions = {}): SyncScheduler {
  const server = options.server ?? (async () => (await loadSettings()).serverUrl);
  const apiKey = options.apiKey ?? (async () => (await loadSettings()).apiKey);
  let last: Promise<unknown> = Promise.resolve();
  return {
    run({ force = false } = {}) {
      const current = last.then(async () => {
        const configured = await server();
        const key = configured ? await apiKey() : '';
        const { serverFetch, timeoutMs } = options;
        const report: SyncReport = await syncPending(
          { history, server: configured, serverFetch, timeoutMs, apiKey: key },
          { force },
        );
        // Pulled after the push, so links just pushed come back as the server has them.
        if (key) {
          const access = { server: configured, apiKey: key, fetch: serverFetch, timeoutMs };
          Object.assign(report, await pushAndPull(access, history, Date.now()));
        }
        await scheduleAlarm(history, configured, key !== '');
        return report;
      });
      last = current.catch(() => undefined);
      return current;
    },
  };
}

async function scheduleAlarm(history: History, server: string, pulls: boolean): Promise<void> {
  const waiting = await nextSyncAt(history, server);
  const due = pulls ? Math.min(waiting ?? Number.POSITIVE_INFINITY, Date.now() + PULL_EVERY_MS) : waiting;
  if (due === undefined) {
    await browser.alarms.clear(SYNC_ALARM);
    return;
  }
  await browser.alarms.create(SYNC_ALARM, { when: Math.max(due, Date.now() + MIN_ALARM_DELAY_MS) });
}
