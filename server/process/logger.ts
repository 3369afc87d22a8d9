import { pino } from 'pino';
import type { Config } from './config.js';
import { type LogFormat, prettyLine } from './log-format.js';

export type Logger = pino.Logger;

// Lines gather until this much is waiting (or a second has passed) and go out in one write: a
// write per line cost a logged redirect about 12 µs of CPU (measured: 52 → 40 µs per request).
const LOG_BATCH_BYTES = 4096;

// Access lines gathered by `lineWriterOf`, written out before the process exits (and before
// pino's own exit flush, which this module's listener precedes).
const gathering = new Set<() => void>();
process.on('exit', () => {
  for (const writeGathered of gathering) writeGathered();
});
const LOG_BATCH_MS = 1000;

/**
 * Structured JSON logs, one object a line on stdout, for journald, Docker or a log shipper. The
 * `pid` tells the processes of a cluster (`WORKERS`) apart; they share one stdout, and a line is
 * never split across writes.
 *
 * Lines are written asynchronously and in batches of 4 KiB, and at least once a second, so a
 * busy server makes one system call for many requests instead of one each. Warnings and errors
 * are written at once (see `request-log.ts` and `main.ts`), and pino flushes what is left when the
 * process exits; a `kill -9` can lose the last second of access lines.
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
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES });
  // Access lines (`lineWriterOf`) gather here as one string and reach the destination a batch at
  // a time: handed over line by line, sonic-boom measures its whole waiting buffer's UTF-8 length
  // on every write, which cost a logged redirect more than building its line.
  let gathered = '';
  const writeGathered = () => {
    if (gathered === '' || (destination as unknown as { destroyed: boolean }).destroyed) return;
    const lines = gathered;
    gathered = '';
    destination.write(lines);
  };
  const flush = () => {
    if ((destination as unknown as { destroyed: boolean }).destroyed) return;
    writeGathered();
    destination.flush();
  };
  // What gathers below the batch size goes out within a second, so a quiet server's log is current.
  setInterval(flush, LOG_BATCH_MS).unref();
  const logger = pino(
    {
      level,
      base: { service: 'linklet', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      hooks: {
        // Every line pino itself writes (start, stop, warnings, failures: never the access lines,
        // which request-log.ts writes) goes out at once, not with the next batch.
        logMethod(args, method) {
          writeGathered(); // the access lines before it first, in the order they happened
          method.apply(this, args);
          flush();
        },
        ...(finish && { streamWrite: finish }),
      },
    },
    destination,
  );
  const finishLine = finish ?? ((line: string) => line);
  redactors.set(logger, finishLine);
  gatherers.set(logger, (line) => {
    gathered += finishLine(line);
    if (gathered.length >= LOG_BATCH_BYTES) writeGathered();
  });
  gathering.add(writeGathered);
  return logger;
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
