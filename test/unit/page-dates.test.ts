import { describe, expect, it } from 'vitest';
import { formatPageDate } from '../../core/http/page-dates.js';

const MINUTE = 60_000;
const START = Date.UTC(2026, 1, 25, 10, 0);

describe('formatPageDate: a moment as a dead link page writes it', () => {
  it.each([
    ['en', 'UTC', '25 Feb 2026, 10:00 UTC'],
    ['ko', 'UTC', '2026년 2월 25일 오전 10:00 (UTC)'],
    ['en', 'Asia/Seoul', '25 Feb 2026, 19:00 GMT+9'],
    ['ko', 'Asia/Seoul', '2026년 2월 25일 오후 7:00 (GMT+9)'],
  ] as const)('%s in %s', (language, timeZone, expected) => {
    // Twice: the second answer comes from what the first kept.
    expect(formatPageDate(START, language, timeZone)).toBe(expected);
    expect(formatPageDate(START, language, timeZone)).toBe(expected);
  });

  it('writes every moment right past the number of moments it keeps', () => {
    const moments = Array.from({ length: 2500 }, (_, i) => START + i * MINUTE);
    const first = moments.map((at) => formatPageDate(at, 'en', 'UTC'));
    // Each moment its own minute, in order: no answer was another moment's.
    expect(new Set(first).size).toBe(moments.length);
    expect(first[1]).toBe('25 Feb 2026, 10:01 UTC');
    expect(first[2499]).toBe('27 Feb 2026, 03:39 UTC');
    const again = [...moments].reverse().map((at) => formatPageDate(at, 'en', 'UTC'));
    expect(again.reverse()).toEqual(first);
  });
});
