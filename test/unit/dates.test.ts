import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIsoDate, formatLegacyDate, isKnownTimeZone } from '../../core/rules/dates.js';

const utc = (iso: string) => Date.parse(iso);

describe('formatIsoDate: ISO 8601 UTC with milliseconds and Z (v1)', () => {
  it.each([
    ['noon', Date.UTC(2026, 0, 31, 12, 0, 0), '2026-01-31T12:00:00.000Z'],
    ['milliseconds are written', Date.UTC(2026, 0, 31, 12, 0, 0, 5), '2026-01-31T12:00:00.005Z'],
    ['midnight', Date.UTC(2026, 1, 28, 0, 0, 0), '2026-02-28T00:00:00.000Z'],
    ['the epoch', 0, '1970-01-01T00:00:00.000Z'],
    ['the last millisecond of a year', Date.UTC(2026, 11, 31, 23, 59, 59, 999), '2026-12-31T23:59:59.999Z'],
  ])('%s', (_name, epochMs, expected) => {
    expect(formatIsoDate(epochMs)).toBe(expected);
  });

  it('always has the shape YYYY-MM-DDTHH:MM:SS.mmmZ', () => {
    expect(formatIsoDate(Date.now())).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe('formatLegacyDate: YYYY-MM-DD HH:MM:SS in the display time zone', () => {
  it.each([
    ['UTC', '2026-01-31T12:00:00.000Z', 'UTC', '2026-01-31 12:00:00'],
    ['UTC drops milliseconds', '2026-01-31T12:34:56.789Z', 'UTC', '2026-01-31 12:34:56'],
    ['UTC midnight shows 00, not 24', '2026-01-31T00:00:00.000Z', 'UTC', '2026-01-31 00:00:00'],
    ['UTC one second before midnight', '2026-01-31T23:59:59.000Z', 'UTC', '2026-01-31 23:59:59'],
    ['Seoul is UTC+9', '2026-01-31T12:00:00.000Z', 'Asia/Seoul', '2026-01-31 21:00:00'],
    [
      'Seoul crosses midnight into the next day and month',
      '2026-01-31T15:30:00.000Z',
      'Asia/Seoul',
      '2026-02-01 00:30:00',
    ],
    ['Seoul crosses into the next year', '2026-12-31T15:00:00.000Z', 'Asia/Seoul', '2027-01-01 00:00:00'],
    ['Seoul midnight shows 00', '2026-01-14T15:00:00.000Z', 'Asia/Seoul', '2026-01-15 00:00:00'],
    ['New York in winter is UTC-5 (EST)', '2026-01-15T12:00:00.000Z', 'America/New_York', '2026-01-15 07:00:00'],
    ['New York in summer is UTC-4 (EDT)', '2026-07-15T12:00:00.000Z', 'America/New_York', '2026-07-15 08:00:00'],
    ['New York goes back a day', '2026-01-15T03:00:00.000Z', 'America/New_York', '2026-01-14 22:00:00'],
    ['New York midnight shows 00', '2026-01-15T05:00:00.000Z', 'America/New_York', '2026-01-15 00:00:00'],
    ['New York just before spring-forward', '2026-03-08T06:59:59.000Z', 'America/New_York', '2026-03-08 01:59:59'],
    ['New York at spring-forward skips 02:00', '2026-03-08T07:00:00.000Z', 'America/New_York', '2026-03-08 03:00:00'],
    ['New York before fall-back (EDT)', '2026-11-01T05:30:00.000Z', 'America/New_York', '2026-11-01 01:30:00'],
    ['New York after fall-back (EST)', '2026-11-01T06:30:00.000Z', 'America/New_York', '2026-11-01 01:30:00'],
  ])('%s', (_name, iso, timeZone, expected) => {
    expect(formatLegacyDate(utc(iso), timeZone)).toBe(expected);
  });

  it('always has the shape YYYY-MM-DD HH:MM:SS', () => {
    for (const timeZone of ['UTC', 'Asia/Seoul', 'America/New_York', 'Asia/Kolkata']) {
      expect(formatLegacyDate(Date.now(), timeZone)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
  });

  it('gives the same result on repeated calls (formatters are reused safely)', () => {
    const at = utc('2026-01-31T15:30:00.000Z');
    expect(formatLegacyDate(at, 'UTC')).toBe('2026-01-31 15:30:00');
    expect(formatLegacyDate(at, 'Asia/Seoul')).toBe('2026-02-01 00:30:00');
    expect(formatLegacyDate(at, 'UTC')).toBe('2026-01-31 15:30:00');
  });
});

describe('isKnownTimeZone', () => {
  it.each(['UTC', 'Asia/Seoul', 'America/New_York', 'Europe/Berlin', 'Etc/GMT+5'])('knows %s', (timeZone) => {
    expect(isKnownTimeZone(timeZone)).toBe(true);
  });

  it.each(['Mars/Olympus_Mons', 'Asia/Seol', 'Not a zone', ''])('does not know %j', (timeZone) => {
    expect(isKnownTimeZone(timeZone)).toBe(false);
  });
});

describe('formatIsoDate', () => {
  it('writes every moment exactly as toISOString does', () => {
    const moment = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: 0, max: 253_402_300_800_000 + 1000 }),
      fc.double({ min: -1e14, max: 3e14, noNaN: true }),
      fc.constantFrom(0, 999, 1000, 86_399_999, 86_400_000, 253_402_300_799_999, 253_402_300_800_000, -1),
    );
    fc.assert(
      fc.property(moment, (ms) => {
        expect(formatIsoDate(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses what toISOString refuses', () => {
    expect(() => formatIsoDate(Number.NaN)).toThrow(RangeError);
    expect(() => formatIsoDate(8.64e15 + 1)).toThrow(RangeError);
  });
});
