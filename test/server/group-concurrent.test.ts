import { describe, expect, it } from 'vitest';
import { groupConcurrent } from '../../server/stores/group-concurrent.js';

/** A `runGroup` that records each group and answers when the test says so. */
function recordingGroups() {
  const groups: number[][] = [];
  const release: Array<() => void> = [];
  const runGroup = async (items: number[]) => {
    groups.push(items);
    await new Promise<void>((resolve) => release.push(resolve));
    if (items.includes(-1)) throw new Error('group failed');
    return items.map((item) => item * 10);
  };
  return { groups, release, runGroup };
}

describe('groupConcurrent', () => {
  it('serves a lone call at once and groups the calls that arrive while groups are under way', async () => {
    const { groups, release, runGroup } = recordingGroups();
    const call = groupConcurrent(runGroup, { maxInFlight: 2, maxGroupSize: 100 });
    const answers = [1, 2, 3, 4, 5].map((item) => call(item));
    expect(groups).toEqual([[1], [2]]);
    release.shift()?.();
    await expect(answers[0]).resolves.toBe(10);
    expect(groups).toEqual([[1], [2], [3, 4, 5]]);
    for (const done of release.splice(0)) done();
    await expect(Promise.all(answers)).resolves.toEqual([10, 20, 30, 40, 50]);
  });

  it('never puts more than maxGroupSize calls in one group', async () => {
    const { groups, release, runGroup } = recordingGroups();
    const call = groupConcurrent(runGroup, { maxInFlight: 1, maxGroupSize: 2 });
    const answers = [1, 2, 3, 4, 5, 6].map((item) => call(item));
    while (groups.length < 4) {
      release.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    release.shift()?.();
    await Promise.all(answers);
    expect(groups).toEqual([[1], [2, 3], [4, 5], [6]]);
  });

  it('rejects every call of a failed group, and only those, then carries on', async () => {
    const { release, runGroup } = recordingGroups();
    const call = groupConcurrent(runGroup, { maxInFlight: 1, maxGroupSize: 10 });
    const first = call(1);
    const failing = [call(-1), call(2)];
    const settled = Promise.allSettled([first, ...failing]);
    release.shift()?.();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    release.shift()?.();
    const results = await settled;
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    const after = call(3);
    await new Promise((resolve) => setImmediate(resolve));
    release.shift()?.();
    await expect(after).resolves.toBe(30);
  });
});
