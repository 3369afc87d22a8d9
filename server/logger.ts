import { pino } from 'pino';
import type { Config } from './config.js';

export type Logger = pino.Logger;

/** Structured JSON logs, one object a line on stdout, for journald, Docker or a log shipper. */
export function createLogger(level: Config['logLevel']): Logger {
  return pino({ level, base: { service: 'linklet' }, timestamp: pino.stdTimeFunctions.isoTime });
}
