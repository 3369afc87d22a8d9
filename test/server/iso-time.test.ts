import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { isoTimeOf, isoTimestamp } from '../../server/process/iso-time.js';

describe('the log lines’ ISO time', () => {
  it('is what toISOString gives, across seconds, years and the epoch, in any order', () => {
    const times = [
      0,
      -1,
      -999,
      -1000,
      -1001,
      999,
      1000,
      1001,
      Date.UTC(2026, 10, 27, 23, 59, 59, 999),
      Date.UTC(2026, 10, 28, 0, 0, 0, 0),
      Date.UTC(2024, 1, 29, 12, 0, 0, 7),
      Date.UTC(10_000, 0, 1, 0, 0, 0, 42), // a six-digit year, signed
      Date.UTC(1969, 11, 31, 23, 59, 59, 500),
    ];
    for (let i = 0; i < 2000; i++) times.push(Math.floor(Math.random() * 4_102_444_800_000));
    const start = Date.UTC(2026, 10, 27, 12, 0, 59, 990);
    for (let ms = start; ms < start + 30; ms++) times.push(ms); // through a second's end, one by one
    for (const ms of [...times, ...times.reverse()]) expect(isoTimeOf(ms)).toBe(new Date(ms).toISOString());
  });

  it('is pino’s own ISO timestamp, as every line of the log carries it', () => {
    const ours = isoTimestamp();
    const pinos = pino.stdTimeFunctions.isoTime();
    expect(ours).toMatch(/^,"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$/);
    expect(
      Math.abs(Date.parse(JSON.parse(`{${ours.slice(1)}}`).time) - Date.parse(JSON.parse(`{${pinos.slice(1)}}`).time)),
    ).toBeLessThan(1000);
  });
});
