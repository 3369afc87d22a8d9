import { pino } from 'pino';
import type { Config } from './config.js';

export type Logger = pino.Logger;

/**
 * Structured JSON logs, one object a line on stdout, for journald, Docker or a log shipper. The
 * `pid` tells the processes of a cluster (`WORKERS`) apart; they share one stdout, and a line is
 * never split across writes.
 *
 * Lines are written asynchronously: while one write is under way the next lines gather and go
 * out together, so a busy server makes one system call for many requests instead of one each.
 * Nothing waits when the server is idle, and pino flushes what is left when the process exits.
 *
 * `redact` sees every finished line before it is written, so a secret (a database password, the
 * API key) is blanked wherever it turns up: in a message, an error's text or any of its fields.
 */
export function createLogger(level: Config['logLevel'], redact?: (line: string) => string): Logger {
  const destination = pino.destination({ dest: 1, sync: false });
  const logger = pino(
    {
      level,
      base: { service: 'linklet', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      ...(redact && { hooks: { streamWrite: redact } }),
    },
    destination,
  );
  redactors.set(logger, redact ?? ((line) => line));
  return logger;
}

const redactors = new WeakMap<Logger, (line: string) => string>();

/**
 * Writes a finished JSON line to a logger's destination, as pino would, past its serializers:
 * what the access log needs once per request. The logger's redaction still applies.
 */
export function lineWriterOf(logger: Logger): (line: string) => void {
  const stream = (logger as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym];
  const redact = redactors.get(logger) ?? ((line: string) => line);
  if (stream === undefined) throw new Error('This logger has no stream to write lines to.');
  return (line) => stream.write(redact(line));
}
