import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../server/process/collect-garbage.js';

describe('collectGarbage', () => {
  it('frees what nothing refers to any more, without the process having been started with --expose-gc', () => {
    expect(typeof (globalThis as { gc?: unknown }).gc).not.toBe('function'); // as the server runs
    let rows: string[][] | undefined = Array.from({ length: 200_000 }, (_, i) => [
      `k${i}`,
      `https://example.com/articles/${i}?utm_source=newsletter&utm_medium=email`,
    ]);
    const held = process.memoryUsage().heapUsed;
    expect(rows.length).toBe(200_000);
    rows = undefined;
    expect(collectGarbage()).toBe(true);
    expect(collectGarbage()).toBe(true); // a second call reuses V8's function
    expect(held - process.memoryUsage().heapUsed).toBeGreaterThan(15 * 1024 * 1024);
  });
});
