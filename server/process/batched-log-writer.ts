import { writeSync } from 'node:fs';

/** Lines gather until this much is waiting, then go out in one write. */
export const LOG_BATCH_BYTES = 64 * 1024;
// A log reader that stops reading (a full pipe) holds at most this much before batches are dropped.
const MAX_WAITING_BYTES = 16 * 1024 * 1024;
// The most bytes a UTF-16 unit becomes in UTF-8: a line this many times its length always fits.
const MAX_BYTES_PER_UNIT = 3;

export interface BatchedLogWriter {
  /** Adds a finished line (its newline included) to the batch; writes the batch once it is full. */
  write(line: string): void;
  /**
   * Writes everything gathered now (a warning, the once-a-second beat, the process's exit);
   * false when a busy reader left some of it waiting.
   */
  flush(): boolean;
}

/**
 * The server's log lines, gathered into one reused buffer and written to a file descriptor with
 * one `write(2)` per 64 KiB: at thousands of requests a second the access lines are the one
 * thing written per request, and a write (or a string handed to a stream) per line cost a logged
 * redirect more CPU than the rest of its answer. Each line is encoded into the buffer once, as it
 * comes, so no string of many lines is built, kept or measured.
 *
 * Writes are synchronous, like pino's default destination: lines reach the file in the order
 * they were written, and what is flushed at exit is written before the process ends. A reader
 * that cannot keep up with a non-blocking pipe (EAGAIN) does not stop the server: the batches
 * wait, are tried again on the next flush, and past 16 MiB the oldest are dropped and counted,
 * which the next line written says.
 */
export function createBatchedLogWriter(fd: number, batchBytes = LOG_BATCH_BYTES): BatchedLogWriter {
  const buffer = Buffer.allocUnsafeSlow(batchBytes);
  let used = 0;
  /** Full batches a busy reader has not taken yet, oldest first. */
  const waiting: Buffer[] = [];
  let waitingBytes = 0;
  let droppedBytes = 0;

  /** Writes `bytes` whole; false (and the rest kept) when the reader is busy. */
  const writeAll = (bytes: Buffer): boolean => {
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        keep(bytes.subarray(offset));
        return false;
      }
    }
    return true;
  };
  const keep = (bytes: Buffer) => {
    waiting.push(Buffer.from(bytes)); // a copy: the batch buffer is reused
    waitingBytes += bytes.length;
    while (waitingBytes > MAX_WAITING_BYTES) {
      const oldest = waiting.shift() as Buffer;
      waitingBytes -= oldest.length;
      droppedBytes += oldest.length;
    }
  };
  const sayDropped = () => {
    if (droppedBytes === 0) return;
    const line = `{"level":40,"time":"${new Date().toISOString()}","pid":${process.pid},"droppedBytes":${droppedBytes},"msg":"log lines dropped: the log's reader fell behind"}\n`;
    droppedBytes = 0;
    writeAll(Buffer.from(line));
  };
  const flush = (): boolean => {
    while (waiting.length > 0) {
      const oldest = waiting.shift() as Buffer;
      waitingBytes -= oldest.length;
      if (!writeAll(oldest)) {
        // writeAll kept what was left of it at the end: put it back first, in order.
        waiting.unshift(waiting.pop() as Buffer);
        break;
      }
    }
    if (used > 0) {
      const batch = buffer.subarray(0, used);
      used = 0;
      if (waiting.length > 0) keep(batch);
      else if (writeAll(batch)) sayDropped();
    }
    return waiting.length === 0;
  };

  return {
    write(line) {
      if (used + line.length * MAX_BYTES_PER_UNIT > buffer.length) {
        flush();
        if (line.length * MAX_BYTES_PER_UNIT > buffer.length) {
          // A line larger than a batch (a long error's stack, say) goes out on its own.
          const bytes = Buffer.from(line);
          if (waiting.length > 0) keep(bytes);
          else writeAll(bytes);
          return;
        }
      }
      used += buffer.write(line, used);
    },
    flush,
  };
}
