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
  return pino(
    {
      level,
      base: { service: 'linklet', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      ...(redact && { hooks: { streamWrite: redact } }),
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
