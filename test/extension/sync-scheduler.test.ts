import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { History } from '../../extension/history/history.js';
import { DEFAULT_SETTINGS, settingsItem } from '../../extension/settings.js';
import { backoffDelay } from '../../extension/sync/push-pending.js';
import { createSyncScheduler, SYNC_ALARM } from '../../extension/sync/sync-scheduler.js';
import { entry, freshHistory, linkletServer, NOW, SERVER, serverDown, useMockServer } from './helpers.js';

const { server, requests } = useMockServer();

let history: History;
let dispose: () => Promise<void>;
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  ({ history, dispose } = freshHistory());
  // The scheduler reads the configured server at each run, as the background's does.
  await settingsItem.setValue({ ...DEFAULT_SETTINGS, serverUrl: SERVER });
});
afterEach(async () => {
  vi.useRealTimers();
  await dispose();
});

const alarm = () => fakeBrowser.alarms.get(SYNC_ALARM);

describe('sync scheduler', () => {
  it('sets the alarm for the earliest entry that is not due yet', async () => {
    await history.put(entry({ id: 'a', code: 'a', nextAttemptAt: NOW + 10 * 60_000 }));
    await history.put(entry({ id: 'b', code: 'b', nextAttemptAt: NOW + 5 * 60_000 }));
    const report = await createSyncScheduler(history).run();
    expect(report).toEqual({ synced: 0, pending: 2, conflicts: 0, failed: 0 });
    expect(requests).toEqual([]);
    expect(await alarm()).toMatchObject({ name: SYNC_ALARM, scheduledTime: NOW + 5 * 60_000 });
  });

  it('sets the alarm for the backoff after a failed push', async () => {
    server.use(serverDown);
    await history.put(entry({ attempts: 3 }));
    await createSyncScheduler(history).run();
    expect(await alarm()).toMatchObject({ scheduledTime: NOW + backoffDelay(4) });
  });

  it.each([
    ['due in a second', NOW + 1000],
    ['overdue', NOW - 60_000],
  ])('never sets the alarm sooner than 30 s ahead (an entry %s)', async (_, nextAttemptAt) => {
    // Forced or not, the entry stays pending: the server is down.
    server.use(serverDown);
    await history.put(entry({ nextAttemptAt }));
    await createSyncScheduler(history).run();
    expect(await alarm()).toMatchObject({ scheduledTime: NOW + 30_000 });
  });

  it('clears the alarm once nothing is pending', async () => {
    server.use(linkletServer());
    await fakeBrowser.alarms.create(SYNC_ALARM, { when: NOW + 60_000 });
    await history.put(entry());
    const report = await createSyncScheduler(history).run();
    expect(report.synced).toBe(1);
    expect(await alarm()).toBeUndefined();
  });

  it('clears the alarm when there never was anything to sync', async () => {
    await fakeBrowser.alarms.create(SYNC_ALARM, { when: NOW + 60_000 });
    await history.put(entry({ status: 'synced' }));
    await createSyncScheduler(history).run({ force: true });
    expect(await alarm()).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it('pushes entries that are not due when forced', async () => {
    server.use(linkletServer());
    await history.put(entry({ nextAttemptAt: NOW + 60 * 60_000 }));
    expect((await createSyncScheduler(history).run({ force: true })).synced).toBe(1);
    expect(requests).toHaveLength(1);
  });

  it('runs one sync at a time, so overlapping runs never push an entry twice', async () => {
    server.use(linkletServer(undefined, { latencyMs: 30 }));
    for (let i = 0; i < 3; i++) await history.put(entry({ id: `e${i}`, code: `code${i}`, createdAt: NOW + i }));
    const scheduler = createSyncScheduler(history);
    const reports = await Promise.all([
      scheduler.run({ force: true }),
      scheduler.run({ force: true }),
      scheduler.run(),
    ]);
    expect(requests.map((r) => r.body?.custom_code)).toEqual(['code0', 'code1', 'code2']);
    expect(reports.map((r) => r.synced)).toEqual([3, 0, 0]);
    expect(await history.pending()).toEqual([]);
  });

  it('keeps running after a sync that failed', async () => {
    server.use(linkletServer());
    let failures = 1;
    const flaky: History = {
      ...history,
      pending: () => (failures-- > 0 ? Promise.reject(new Error('database closed')) : history.pending()),
    };
    const scheduler = createSyncScheduler(flaky);
    await history.put(entry());
    const [first, second] = [scheduler.run({ force: true }), scheduler.run({ force: true })];
    await expect(first).rejects.toThrow('database closed');
    expect((await second).synced).toBe(1);
  });
});
