import { describe, expect, it } from 'vitest';
import { logLevelOf } from '../../core/http/error-answer.js';
import { type ErrorKind, LinkletError, statusOfErrorKind } from '../../core/http/errors.js';

const KINDS = Object.keys(statusOfErrorKind) as ErrorKind[];
const framesOf = (error: Error) => (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));

describe('LinkletError: a stack only where a log line will show it', () => {
  it.each(KINDS)('%s: frames captured exactly when the error is logged', (kind) => {
    const error = new LinkletError(kind, 'what went wrong');
    const logged = logLevelOf(error) !== undefined;
    expect(framesOf(error).length > 0).toBe(logged);
    expect(logged).toBe(statusOfErrorKind[kind] >= 500);
    // The message stays on the stack's first line, which a log or a debugger shows.
    expect(error.stack).toMatch(/^LinkletError: what went wrong/);
  });

  it('leaves the stack limit as it found it, for every other error of the process', () => {
    const before = Error.stackTraceLimit;
    new LinkletError('invalid', 'refused');
    expect(Error.stackTraceLimit).toBe(before);
    expect(framesOf(new Error('after a refusal')).length).toBeGreaterThan(0);
  });

  it('keeps what a refusal carries besides its stack', () => {
    const cause = new Error('the parser said');
    const error = new LinkletError('rate_limited', 'Too many requests; try again in 3 seconds.', {
      cause,
      retryAfterSeconds: 3,
    });
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterSeconds: 3, cause });
    expect(error.message).toBe('Too many requests; try again in 3 seconds.');
  });
});
