import { randomUUID } from 'node:crypto';
import type { LogLevel } from '../../core/error-answer.js';
import type { Logger } from '../process/logger.js';

const REQUEST_ID = /^[\w.-]{1,64}$/;

/** A request on its way through the server: its id and when it came in. */
export interface RequestTrace {
  id: string;
  method: string;
  path: string;
  started: number;
}

export interface RequestLog {
  /** Starts a request's trace: the id the client sent if it is well-formed, else a fresh one. */
  begin(method: string, target: string, givenId: string | string[] | null | undefined): RequestTrace;
  /** The access line of an answered request (unless `ACCESS_LOG` is off). */
  answered(trace: RequestTrace, status: number): void;
  /** A failure worth a log line (see the core's `logLevelOf`), with the request it broke. */
  failed(error: unknown, level: LogLevel, trace: Pick<RequestTrace, 'id' | 'method' | 'path'> | undefined): void;
}

export interface RequestLogOptions {
  /** One line per answered request (`ACCESS_LOG`, on by default). Failures are logged either way. */
  accessLog?: boolean;
}

const FAILURE_MESSAGES: Record<LogLevel, string> = { error: 'request failed', warn: 'store unavailable' };

/**
 * Request ids, timing and the log lines of requests, in one place for every path a request can
 * take (fast paths, the web adapter, the rate limiter), so they cannot drift apart.
 *
 * The access line is the one thing logged per request, so it is written at the `info` level
 * through pino like any line, but with a flat object of primitives: no serializers to run.
 */
export function createRequestLog(logger: Logger, options: RequestLogOptions = {}): RequestLog {
  const access = options.accessLog !== false && logger.isLevelEnabled('info');
  return {
    begin(method, target, givenId) {
      const query = target.indexOf('?');
      return {
        id: typeof givenId === 'string' && REQUEST_ID.test(givenId) ? givenId : randomUUID(),
        method,
        path: query === -1 ? target : target.slice(0, query),
        started: performance.now(),
      };
    },
    answered(trace, status) {
      if (!access) return;
      const durationMs = Math.round((performance.now() - trace.started) * 100) / 100;
      logger.info({ reqId: trace.id, method: trace.method, path: trace.path, status, durationMs }, 'request');
    },
    failed(error, level, trace) {
      logger[level](
        { err: error, reqId: trace?.id, method: trace?.method, path: trace?.path },
        FAILURE_MESSAGES[level],
      );
    },
  };
}
