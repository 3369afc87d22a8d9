import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import type { LogLevel } from '../../core/http/error-answer.js';
import { LinkletError } from '../../core/http/errors.js';
import { type Logger, lineWriterOf } from '../process/logger.js';
import { createRequestIds } from './request-ids.js';

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

/**
 * What a failure's line says, by what failed rather than by its level: an operator grepping for
 * "store unavailable" must find only the store's outages, not a client that sent a bad Host.
 */
export function failureMessageOf(error: unknown): string {
  if (!(error instanceof LinkletError)) return 'request failed';
  if (error.kind === 'unavailable') return 'store unavailable';
  if (error.kind === 'invalid') return 'request unreadable';
  return 'request failed';
}

/**
 * Request ids, timing and the log lines of requests, in one place for every path a request can
 * take (fast paths, the web adapter, the rate limiter), so they cannot drift apart.
 *
 * The access line is the one thing logged per request, and pino's serializing was most of a
 * logged redirect's cost (measured: 63–70 µs of CPU per redirect with it, 44–57 µs with this,
 * 27–31 µs with `ACCESS_LOG=off`). So it is built here as the very line pino would write (level
 * 30, the logger's time and bindings) and handed to the logger's destination, redaction included.
 */
export function createRequestLog(logger: Logger, options: RequestLogOptions = {}): RequestLog {
  const access = options.accessLog !== false && logger.isLevelEnabled('info');
  const writeLine = lineWriterOf(logger);
  // pino's own pieces of a line: the time as the logger writes it (`,"time":…`) and its bindings.
  const internals = logger as unknown as Record<symbol, unknown>;
  const time = internals[pino.symbols.timeSym] as () => string;
  const bindings = (internals[pino.symbols.chindingsSym] as string | undefined) ?? '';
  // The line's fixed parts, joined once. The time is formatted once per millisecond, not once
  // per line: at thousands of lines a second most share their millisecond with the one before.
  // Which millisecond it is comes from the duration's clock reading (its origin is the wall
  // clock's at start), not a second reading; the time written is the wall clock's. `performance`
  // is imported, not the global: Node's global is a getter, which optimized code calls.
  const { timeOrigin } = performance;
  const head = '{"level":30';
  const afterTime = `${bindings},"reqId":"`;
  const freshId = createRequestIds();
  let timeAt = -1;
  let timeText = '';
  return {
    begin(method, target, givenId) {
      const query = target.indexOf('?');
      return {
        id: typeof givenId === 'string' && REQUEST_ID.test(givenId) ? givenId : freshId(),
        method,
        path: query === -1 ? target : target.slice(0, query),
        started: performance.now(),
      };
    },
    answered(trace, status) {
      if (!access) return;
      const finished = performance.now();
      const at = Math.floor(timeOrigin + finished);
      if (at !== timeAt) {
        timeAt = at;
        timeText = time();
      }
      const durationMs = Math.round((finished - trace.started) * 100) / 100;
      // The id (a UUID or `REQUEST_ID`'s characters) and the method (an HTTP token, which Node's
      // parser has checked) need no JSON escaping; the path may.
      writeLine(
        `${head}${timeText}${afterTime}${trace.id}","method":"${trace.method}","path":${JSON.stringify(trace.path)},"status":${status},"durationMs":${durationMs},"msg":"request"}\n`,
      );
    },
    failed(error, level, trace) {
      logger[level](
        { err: error, reqId: trace?.id, method: trace?.method, path: trace?.path },
        failureMessageOf(error),
      );
    },
  };
}
