import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWriterThread } from '../../server/stores/sqlite/writer-thread.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A committer in the shape the SQLite store gives the thread: source text of (db, args) => (batch) => results.
// A negative value holds the thread for that many milliseconds first (a commit still in hand).
const echo = (db: { prepare(sql: string): { get(value: unknown): { v: unknown } } }, args: { sql: string }) => {
  const statement = db.prepare(args.sql);
  return (batch: number[]) =>
    batch.map((value) => {
      if (value < 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, -value);
      return statement.get(value).v;
    });
};
const startEcho = (path: string) =>
  startWriterThread<number, number>({ path, pragmas: [], setup: echo.toString(), args: { sql: 'SELECT ? * 2 AS v' } });

describe('the SQLite writer thread', () => {
  it('commits batches in order on its own connection', async () => {
    const writer = startEcho(join(dir, 'a.db'));
    expect(await writer.commit([1, 2, 3])).toEqual([2, 4, 6]);
    // Its young generation is capped (what it keeps between batches is small; see WRITER_HEAP_LIMITS).
    expect(writer.thread?.resourceLimits?.maxYoungGenerationSizeMb).toBe(8);
    await writer.ping();
    await writer.close();
  });

  it('fails what a dying thread had in hand, and starts another for the next call', async () => {
    const writer = startEcho(join(dir, 'b.db'));
    expect(await writer.commit([1])).toEqual([2]);
    const dying = writer.thread;
    const inHand = writer.commit([-5000]);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the thread has it in hand now
    await dying?.terminate();
    await expect(inHand).rejects.toThrow(/writer thread exited/);
    expect(await writer.commit([21])).toEqual([42]);
    expect(writer.thread).not.toBe(dying);
    await writer.ping();
    await writer.close();
  });

  it('makes ping fail with the reason when no thread can run, so /health can say so', async () => {
    const path = join(dir, 'not-a-database.db');
    writeFileSync(path, 'this is not an SQLite file, and is long enough to have a header'.repeat(4));
    const writer = startEcho(path);
    await expect(writer.ping()).rejects.toThrow(/not a database/);
    await expect(writer.commit([1])).rejects.toThrow(/not a database/);
    await writer.close();
  });
});
