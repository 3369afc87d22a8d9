import { expect } from 'vitest';
import { type ErrorKind, LinkletError } from '../../core/http/errors.js';

/** Runs `fn`, which must throw, and returns what it threw. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw, but it returned');
}

/** Asserts that `fn` throws a LinkletError of `kind` whose message matches every pattern. */
export function expectLinkletError(fn: () => unknown, kind: ErrorKind, ...patterns: RegExp[]): LinkletError {
  const error = thrownBy(fn);
  expect(error).toBeInstanceOf(LinkletError);
  const linkletError = error as LinkletError;
  expect(linkletError.kind).toBe(kind);
  for (const pattern of patterns) expect(linkletError.message).toMatch(pattern);
  return linkletError;
}

/** Asserts that `fn` throws a 400 (`kind: 'invalid'`) whose message matches every pattern. */
export function expectInvalid(fn: () => unknown, ...patterns: RegExp[]): LinkletError {
  const error = expectLinkletError(fn, 'invalid', ...patterns);
  expect(error.status).toBe(400);
  return error;
}
