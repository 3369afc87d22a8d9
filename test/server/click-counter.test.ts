import { describe, expect, it } from 'vitest';
import type { ClickBatch } from '../../core/rules/clicks.js';
import { createClickCounter } from '../../server/clicks/click-counter.js';

const DAY = 86_400_000;
const NOON = Date.UTC(2026, 0, 31, 12);
const TODAY = NOON / DAY - 0.5;

/** A counter writing into `written` (or refusing while `refusing` is set), with its log lines. */
function counterOnStore(options: { maxKeptCounts?: number } = {}) {
  const written: ClickBatch[] = [];
  const state = { refusing: false };
  const logs: Array<{ level: string; fields: object; message: string }> = [];
  const counter = createClickCounter({
    write: async (batch) => {
      if (state.refusing) throw new Error('database is locked');
      written.push(batch);
    },
    logger: {
      info: (fields, message) => logs.push({ level: 'info', fields, message }),
      warn: (fields, message) => logs.push({ level: 'warn', fields, message }),
      error: (fields, message) => logs.push({ level: 'error', fields, message }),
    },
    writeEveryMs: 60_000, // the tests flush by hand
    ...options,
  });
  /** Every written count, summed by day and code key. */
  const totals = () => {
    const sums: Record<string, number> = {};
    for (const { day, codeKeys, counts } of written) {
      for (const [i, codeKey] of codeKeys.entries())
        sums[`${day}:${codeKey}`] = (sums[`${day}:${codeKey}`] ?? 0) + (counts[i] ?? 0);
    }
    return sums;
  };
  return { counter, written, state, logs, totals };
}

describe('click counter', () => {
  it('writes one batch per day with a count per code key, and nothing when nothing was clicked', async () => {
    const { counter, written } = counterOnStore();
    for (let i = 0; i < 5; i++) counter.count('a', NOON);
    counter.count('b', NOON + 1);
    counter.count('a', NOON + DAY / 2); // the next UTC day
    expect(counter.pending).toBe(7);
    expect(await counter.flush()).toBe(true);
    expect(written).toEqual([
      { day: TODAY, codeKeys: ['a', 'b'], counts: [5, 1] },
      { day: TODAY + 1, codeKeys: ['a'], counts: [1] },
    ]);
    expect(await counter.flush()).toBe(true);
    expect(written).toHaveLength(2);
    await counter.close();
  });

  it('keeps what the store refuses and writes it, with later counts of its day, once the store takes it', async () => {
    const { counter, written, state, logs, totals } = counterOnStore();
    state.refusing = true;
    counter.count('a', NOON);
    expect(await counter.flush()).toBe(false);
    counter.count('a', NOON);
    counter.count('b', NOON);
    expect(await counter.flush()).toBe(false);
    expect(counter.pending).toBe(3);
    expect(logs.map(({ level, message }) => [level, message])).toEqual([
      ['warn', 'click counts could not be written; they are kept and retried'],
    ]);
    state.refusing = false;
    expect(await counter.flush()).toBe(true);
    expect(written).toEqual([{ day: TODAY, codeKeys: ['a', 'b'], counts: [2, 1] }]);
    expect(totals()).toEqual({ [`${TODAY}:a`]: 2, [`${TODAY}:b`]: 1 });
    expect(logs.at(-1)?.message).toBe('click counts are being written again');
    await counter.close();
  });

  it('keeps at most maxKeptCounts counts while the store refuses, and logs how many clicks it dropped', async () => {
    const { counter, state, logs } = counterOnStore({ maxKeptCounts: 3 });
    state.refusing = true;
    for (const codeKey of ['a', 'b', 'c', 'd', 'e']) counter.count(codeKey, NOON);
    counter.count('a', NOON);
    expect(await counter.flush()).toBe(false);
    expect(counter.pending).toBe(3);
    const dropped = logs.find(({ level }) => level === 'error');
    expect(dropped?.fields).toEqual({ droppedClicks: 3 });
    expect(dropped?.message).toMatch(/^3 clicks were dropped/);
    await counter.close(1, 0);
  });

  it('writes the last counts on close, joining a write under way, and logs what a refusing store never took', async () => {
    const { counter, logs, totals } = counterOnStore();
    counter.count('a', NOON);
    const underWay = counter.flush();
    counter.count('a', NOON);
    await counter.close();
    await underWay;
    expect(totals()).toEqual({ [`${TODAY}:a`]: 2 });

    const refused = counterOnStore();
    refused.state.refusing = true;
    refused.counter.count('z', NOON);
    await refused.counter.close(2, 0);
    expect(refused.logs.at(-1)).toMatchObject({ level: 'error', fields: { droppedClicks: 1 } });
    expect(logs).toEqual([]);
  });
});
