import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Runs the built cache in a fresh process with `--expose-gc`: the store is filled first, then
 * the heap (and the memory of array buffers, where the cache keeps its links) is measured after
 * full collections, before and after the cache has taken in every link.
 */
function measureCache(links: number, maxBytes: number) {
  const script = `
    const { withLinkCache } = await import(${JSON.stringify(resolve('dist/server/stores/cache/link-cache.js'))});
    const { createMemoryLinkStore } = await import(${JSON.stringify(resolve('dist/core/store/memory-link-store.js'))});
    const store = createMemoryLinkStore();
    const now = Date.now();
    const codes = [];
    for (let i = 0; i < ${links}; i++) {
      const code = 'long' + i;
      codes.push(code);
      // 220 Hangul syllables: 680 characters as stored, 2,000 once percent-encoded for Location.
      // Made flat (through a Buffer) so that reading them does not grow the store's own strings.
      const originalUrl = Buffer.from('https://example.com/' + i + '/' + '가'.repeat(220)).toString();
      await store.create({ code, codeKey: code, originalUrl, createdAt: now, expiresAt: now + 3600000 }, now);
    }
    const used = () => {
      globalThis.gc();
      globalThis.gc();
      const memory = process.memoryUsage();
      return memory.heapUsed + memory.arrayBuffers;
    };
    const before = used();
    const cache = withLinkCache(store, { maxEntries: 100000, maxBytes: ${maxBytes}, maxAgeMs: 60000 });
    for (let round = 0; round < 3; round++) for (const code of codes) await cache.lookup(code);
    const growth = used() - before;
    let exact = 0;
    for (const code of codes) {
      const found = cache.lookup(code);
      if (!(found instanceof Promise) && found.originalUrl === (await store.findByCodeKey(code)).originalUrl) exact++;
    }
    console.log(JSON.stringify({ growth, bytes: cache.bytes, size: cache.size, exact }));`;

  const output = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return JSON.parse(output) as { growth: number; bytes: number; size: number; exact: number };
}

describe('the link cache in memory', () => {
  it('holds to its byte bound under 10,000 long links: heap growth measured', () => {
    const maxBytes = 8 * 1024 * 1024;
    const { growth, bytes, size, exact } = measureCache(10_000, maxBytes);
    // Every cached link is answered from memory, exactly; the rest were evicted to stay in budget.
    expect(size).toBeGreaterThan(1000);
    expect(size).toBeLessThan(10_000);
    expect(exact).toBe(size);
    expect(bytes).toBeLessThanOrEqual(maxBytes);
    // What the process really gained: the budget, plus at most 2 MiB of code and runtime state.
    expect(growth).toBeLessThanOrEqual(maxBytes + 2 * 1024 * 1024);
  });
});
