import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createBatchedLogWriter } from '../../server/process/batched-log-writer.js';

// Every write(2) the writer makes, as bytes, so a test sees where batches were cut.
const writes: Buffer[] = [];
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    writeSync: (fd: number, buffer: Buffer, offset: number, length: number) => {
      const written = real.writeSync(fd, buffer, offset, length);
      writes.push(Buffer.from(buffer.subarray(offset, offset + written)));
      return written;
    },
  };
});

const dir = fs.mkdtempSync(join(tmpdir(), 'linklet-log-writer-'));
let files = 0;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A fresh temp file open for appending, as `npm start >> linklet.log` gives the server. */
function tempLog() {
  const path = join(dir, `${++files}.log`);
  const fd = fs.openSync(path, 'a');
  writes.length = 0;
  return { fd, read: () => fs.readFileSync(path, 'utf8'), close: () => fs.closeSync(fd) };
}

const numbered = (n: number, text = 'x'.repeat(n % 37)) => `{"n":${n},"msg":"${text}"}\n`;

describe('the batched log writer', () => {
  it('writes nothing until a batch fills or is flushed, then everything gathered', () => {
    const log = tempLog();
    const writer = createBatchedLogWriter(log.fd, 1024);
    writer.write(numbered(1));
    writer.write(numbered(2));
    expect(log.read()).toBe('');
    expect(writes).toHaveLength(0);
    expect(writer.flush()).toBe(true);
    expect(log.read()).toBe(numbered(1) + numbered(2));
    expect(writes).toHaveLength(1);
    expect(writer.flush()).toBe(true); // nothing gathered: nothing written
    expect(writes).toHaveLength(1);
    log.close();
  });

  it('writes many batches in order, each a run of whole lines', () => {
    const log = tempLog();
    const writer = createBatchedLogWriter(log.fd, 512);
    const lines = Array.from({ length: 3000 }, (_, n) => numbered(n));
    for (const line of lines) writer.write(line);
    writer.flush();
    expect(log.read()).toBe(lines.join(''));
    expect(writes.length).toBeGreaterThan(100);
    for (const chunk of writes) {
      expect(chunk.length).toBeLessThanOrEqual(512);
      expect(chunk.at(-1)).toBe(0x0a); // no line split between two writes
    }
    log.close();
  });

  it('writes a line longer than a batch whole and on its own, after the lines before it', () => {
    const log = tempLog();
    const writer = createBatchedLogWriter(log.fd, 256);
    const long = `{"err":"${'s'.repeat(5000)}"}\n`;
    writer.write(numbered(1));
    writer.write(long);
    writer.write(numbered(2));
    writer.flush();
    expect(log.read()).toBe(numbered(1) + long + numbered(2));
    expect(writes.map((chunk) => chunk.toString())).toEqual([numbered(1), long, numbered(2)]);
    log.close();
  });

  it('keeps Hangul and emoji whole: no character split between writes', () => {
    const log = tempLog();
    const writer = createBatchedLogWriter(log.fd, 300);
    const texts = ['한글 링크', '😀🚀', '가'.repeat(99), '🇰🇷'.repeat(20), 'mixed 한 😀 a', '', '👩‍👩‍👧'];
    const lines = Array.from({ length: 2000 }, (_, n) => numbered(n, texts[n % texts.length]));
    for (const line of lines) writer.write(line);
    writer.flush();
    expect(log.read()).toBe(lines.join(''));
    const decoder = new TextDecoder('utf-8', { fatal: true });
    for (const chunk of writes) {
      expect(() => decoder.decode(chunk)).not.toThrow();
      expect(chunk.at(-1)).toBe(0x0a);
    }
    log.close();
  });

  it('lets batches wait on a full non-blocking pipe, and writes them in order once it is read', async () => {
    // A child that reads nothing until the gate file exists, then copies its stdin to its stdout.
    // Until then the writer's end (non-blocking, as libuv opens it) fills and answers EAGAIN, and
    // stays full: a reader that drained it between two flushes would make the test a race.
    const gate = join(dir, `gate-${++files}`);
    const child = spawn('sh', ['-c', 'while [ ! -e "$1" ]; do sleep 0.01; done; exec cat', 'sh', gate], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      const fd = (child.stdin as unknown as { _handle: { fd: number } })._handle.fd;
      expect(fd).toBeGreaterThan(2);
      const received: Buffer[] = [];
      let receivedBytes = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        received.push(chunk);
        receivedBytes += chunk.length;
      });
      const writer = createBatchedLogWriter(fd, 64 * 1024);
      const lines: string[] = [];
      let full = false;
      // Until the pipe refuses, then a few batches more: those wait (under the 16 MiB it holds).
      for (let n = 0, after = 0; after < 2000 && n < 400_000; n++) {
        const line = numbered(n, `${'한'.repeat(n % 50)}😀`);
        lines.push(line);
        writer.write(line);
        if (!full && n % 1000 === 999) full = !writer.flush();
        if (full) after++;
      }
      expect(full, 'the pipe never filled').toBe(true);
      expect(writer.flush()).toBe(false);

      const expected = Buffer.from(lines.join(''));
      fs.writeFileSync(gate, '');
      for (let tries = 0; tries < 10_000 && !writer.flush(); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      expect(writer.flush()).toBe(true);
      for (let tries = 0; tries < 10_000 && receivedBytes < expected.length; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      expect(receivedBytes).toBe(expected.length);
      expect(Buffer.concat(received).equals(expected)).toBe(true);
    } finally {
      child.stdin.destroy();
      child.kill();
      await once(child, 'close');
    }
  });
});
