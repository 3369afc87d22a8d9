import { pino } from 'pino';
import { type BatchedLogWriter, createBatchedLogWriter } from './batched-log-writer.js';
import type { Config } from './config.js';
import { isoTimestamp } from './iso-time.js';
import { type LogFormat, prettyLine } from './log-format.js';

export type Logger = pino.Logger;

// Every writer of this process, flushed before it exits (`process.exit` included). A busy pipe
// is waited for, a moment at most: the last lines (why it stopped) matter most.
const writers = new Set<BatchedLogWriter>();
const EXIT_WAIT_MS = 1000;
process.on('exit', () => {
  const until = Date.now() + EXIT_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4)); // Atomics.wait: a sleep without the event loop
  for (const writer of writers) {
    while (!writer.flush() && Date.now() < until) Atomics.wait(pause, 0, 0, 10);
  }
});
// What gathers below a batch goes out within this, so a quiet server's log is current.
const LOG_FLUSH_MS = 1000;

/**
 * Structured JSON logs, one object a line on stdout, for journald, Docker or a log shipper. The
 * `pid` tells the processes of a cluster (`WORKERS`) apart; they share one stdout, and a line is
 * never split across writes.
 *
 * Access lines are written in batches of 64 KiB and at least once a second
 * (`createBatchedLogWriter`), so a busy server makes one system call for hundreds of requests.
 * Every line pino itself writes (start, stop, warnings and errors) is written at once, after the
 * access lines before it; whatever is gathered is written when the process exits. A `kill -9`
 * can lose the last second of access lines.
 *
 * `redact` sees every finished line before it is written, so a secret (a database password, the
 * API key) is blanked wherever it turns up: in a message, an error's text or any of its fields.
 *
 * `pretty` (a terminal, see `logFormatOf`) turns each finished line into text a person reads;
 * redaction runs before and after, so a secret is blanked in its JSON and in its plain form.
 */
export function createLogger(
  level: Config['logLevel'],
  redact?: (line: string) => string,
  format: LogFormat = 'json',
): Logger {
  const blank = redact ?? ((line: string) => line);
  const finish = format === 'pretty' ? (line: string) => blank(prettyLine(blank(line))) : redact;
  const writer = createBatchedLogWriter(1);
  writers.add(writer);
  setInterval(writer.flush, LOG_FLUSH_MS).unref();
  const logger = pino(
    {
      level,
      base: { service: 'linklet', pid: process.pid },
      timestamp: isoTimestamp,
      hooks: {
        logMethod(args, method) {
          method.apply(this, args);
          writer.flush();
        },
        ...(finish && { streamWrite: finish }),
      },
    },
    destinationOf(writer),
  );
  const finishLine = finish ?? ((line: string) => line);
  redactors.set(logger, finishLine);
  gatherers.set(logger, finish === undefined ? writer.write : (line) => writer.write(finish(line)));
  return logger;
}

/** The writer as pino's stream: `logger.flush(callback)` hands the callback to its flush. */
function destinationOf(writer: BatchedLogWriter): pino.DestinationStream {
  const stream = {
    write: writer.write,
    flush(done?: (error?: Error) => void) {
      writer.flush();
      done?.();
    },
  };
  return stream;
}

const redactors = new WeakMap<Logger, (line: string) => string>();
const gatherers = new WeakMap<Logger, (line: string) => void>();

/**
 * Writes a finished JSON line to a logger's destination, as pino would, past its serializers:
 * what the access log needs once per request. The logger's redaction (and pretty format) still applies.
 * A logger of `createLogger` gathers the lines into batches (written with its next batch, at
 * least once a second, before any line of its own, and at exit); any other writes each at once.
 */
export function lineWriterOf(logger: Logger): (line: string) => void {
  const gather = gatherers.get(logger);
  if (gather !== undefined) return gather;
  const stream = (logger as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym];
  const redact = redactors.get(logger) ?? ((line: string) => line);
  if (stream === undefined) throw new Error('This logger has no stream to write lines to.');
  return (line) => stream.write(redact(line));
}
