import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../core/http/parse-json-text.js';
import { expectLinkletError } from './expect-error.js';

const nested = (depth: number, open: string, inner: string, close: string) =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

describe('parseJsonText and lone surrogates', () => {
  it('names where a lone surrogate is: a field, an item, a field name', () => {
    expectLinkletError(() => parseJsonText('{"custom_code":"a\\ud800"}'), 'invalid', /^custom_code has a lone/);
    expectLinkletError(() => parseJsonText('{"tags":["ok","\\udfff"]}'), 'invalid', /^tags\[1\] has a lone/);
    expectLinkletError(() => parseJsonText('{"x":{"\\ud83d":1}}'), 'invalid', /^A field name in x has a lone/);
    expect(parseJsonText('{"emoji":"\\ud83d\\ude00"}')).toEqual({ emoji: '😀' });
  });

  // As deep as a 10 MiB import may nest: the walk keeps its own stack, never the call stack.
  it.each([
    ['an array', nested(200_000, '[', '"\\ud83d"', ']'), /^\[0\]\[0\]\[0\]/],
    ['an object', nested(200_000, '{"a":', '"\\ud83d"', '}'), /^a\.a\.a/],
  ])('finds one under %s nested 200,000 deep: a 400 with a short path, not a stack overflow', (_, text, start) => {
    const error = expectLinkletError(() => parseJsonText(text), 'invalid', /… has a lone UTF-16 surrogate/);
    expect(error.message).toMatch(start);
    expect(error.message.length).toBeLessThan(200);
  });

  it('takes the same nesting without a lone surrogate as it is', () => {
    const text = nested(200_000, '[', '"\\ud83d\\ude00"', ']');
    let value = parseJsonText(text);
    for (let depth = 0; depth < 200_000; depth++) value = (value as unknown[])[0];
    expect(value).toBe('😀');
  });
});
