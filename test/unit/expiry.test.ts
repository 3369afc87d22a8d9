import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS, expiryFor, isActive } from '../../core/rules/expiry.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const utc = (iso: string) => Date.parse(iso);
const NOW = utc('2026-01-31T12:00:00.000Z');

describe('expire_duration values', () => {
  it('are exactly 24h, 48h, 1week and 1month', () => {
    expect([...EXPIRE_DURATIONS]).toEqual(['24h', '48h', '1week', '1month']);
  });

  it('default to 1week', () => {
    expect(DEFAULT_EXPIRE_DURATION).toBe('1week');
  });
});

describe('expiryFor: fixed durations', () => {
  it.each([
    ['24h', 86_400_000],
    ['48h', 2 * 86_400_000],
    ['1week', 7 * 86_400_000],
  ] as const)('%s adds exactly %i ms', (duration, ms) => {
    expect(expiryFor(duration, NOW)).toBe(NOW + ms);
  });

  it.each([
    ['24h', '2026-03-07T12:34:56.789Z', '2026-03-08T12:34:56.789Z'],
    ['48h', '2026-03-07T12:34:56.789Z', '2026-03-09T12:34:56.789Z'],
    ['1week', '2026-03-05T12:34:56.789Z', '2026-03-12T12:34:56.789Z'],
    ['1week', '2026-10-28T23:59:59.999Z', '2026-11-04T23:59:59.999Z'],
  ] as const)('%s from %s is %s, even across a DST change somewhere', (duration, from, to) => {
    expect(expiryFor(duration, utc(from))).toBe(utc(to));
    expect(new Date(expiryFor(duration, utc(from))).toISOString()).toBe(to);
  });
});

describe('expiryFor: 1month is the same UTC day and time next month, clamped', () => {
  it.each([
    ['a mid-month day', '2026-05-15T08:30:00.000Z', '2026-06-15T08:30:00.000Z'],
    ['Jan 31 to Feb 28 (2026)', '2026-01-31T12:00:00.000Z', '2026-02-28T12:00:00.000Z'],
    ['Jan 31 to Feb 29 (2024, leap year)', '2024-01-31T12:00:00.000Z', '2024-02-29T12:00:00.000Z'],
    ['Jan 30 to Feb 28', '2026-01-30T00:00:00.000Z', '2026-02-28T00:00:00.000Z'],
    ['Jan 29 to Feb 29 in a leap year', '2024-01-29T06:00:00.000Z', '2024-02-29T06:00:00.000Z'],
    ['Feb 28 to Mar 28 (not month end)', '2026-02-28T10:00:00.000Z', '2026-03-28T10:00:00.000Z'],
    ['Feb 29 to Mar 29', '2024-02-29T10:00:00.000Z', '2024-03-29T10:00:00.000Z'],
    ['Mar 31 to Apr 30', '2026-03-31T23:59:59.000Z', '2026-04-30T23:59:59.000Z'],
    ['Aug 31 to Sep 30', '2026-08-31T01:02:03.000Z', '2026-09-30T01:02:03.000Z'],
    ['Nov 30 to Dec 30', '2026-11-30T12:00:00.000Z', '2026-12-30T12:00:00.000Z'],
    ['Dec 15 to Jan 15 of the next year', '2026-12-15T09:00:00.000Z', '2027-01-15T09:00:00.000Z'],
    ['Dec 31 to Jan 31 of the next year', '2026-12-31T23:00:00.000Z', '2027-01-31T23:00:00.000Z'],
    ['milliseconds are kept', '2026-04-10T10:20:30.456Z', '2026-05-10T10:20:30.456Z'],
    ['the last millisecond of a day', '2026-06-30T23:59:59.999Z', '2026-07-30T23:59:59.999Z'],
    ['midnight UTC', '2026-07-01T00:00:00.000Z', '2026-08-01T00:00:00.000Z'],
  ])('%s', (_name, from, to) => {
    expect(new Date(expiryFor('1month', utc(from))).toISOString()).toBe(to);
  });

  it.each([
    ['across the US spring-forward (Mar 1 to Apr 1 is 31 days of 24h)', '2026-03-01T12:00:00.000Z', 31],
    ['across the EU fall-back (Oct 15 to Nov 15 is 31 days of 24h)', '2026-10-15T12:00:00.000Z', 31],
    ['across Feb in a common year (Feb 1 to Mar 1 is 28 days of 24h)', '2026-02-01T00:30:00.000Z', 28],
  ])('is not DST-sensitive: %s', (_name, from, days) => {
    expect(expiryFor('1month', utc(from)) - utc(from)).toBe(days * DAY);
  });
});

describe('isActive: active while now < expiresAt', () => {
  const expiresAt = NOW;

  it.each([
    ['one millisecond before expiry', expiresAt - 1, true],
    ['long before expiry', expiresAt - 7 * DAY, true],
    ['exactly at expiry (equality is expired)', expiresAt, false],
    ['one millisecond after expiry', expiresAt + 1, false],
    ['long after expiry', expiresAt + 30 * DAY, false],
  ])('%s', (_name, now, active) => {
    expect(isActive(expiresAt, now)).toBe(active);
  });

  it('a link made now with any duration is active now and expired at its expiry', () => {
    for (const duration of EXPIRE_DURATIONS) {
      const at = expiryFor(duration, NOW);
      expect(isActive(at, NOW)).toBe(true);
      expect(isActive(at, at)).toBe(false);
    }
  });
});
