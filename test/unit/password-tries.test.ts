import { describe, expect, it } from 'vitest';
import {
  createPasswordTries,
  MAX_PAIRS,
  MAX_PAIRS_PER_LINK,
  TRIES_PER_MINUTE,
} from '../../core/passwords/password-tries.js';

const T0 = Date.UTC(2026, 0, 1);

/** `count` clients (`prefix` + number) each taking one try on `link` at `at`; returns how many were refused. */
function tryFrom(
  tries: ReturnType<typeof createPasswordTries>,
  prefix: string,
  count: number,
  link: string,
  at: number,
) {
  let refused = 0;
  for (let i = 0; i < count; i++) if (tries.take(`${prefix}${i}`, link, at) !== undefined) refused += 1;
  return refused;
}

describe('password tries', () => {
  it('allows five tries a minute per client and link, then says how long to wait', () => {
    const tries = createPasswordTries();
    for (let i = 0; i < TRIES_PER_MINUTE; i++) expect(tries.take('10.0.0.1', 'plan', T0 + i)).toBeUndefined();
    expect(tries.take('10.0.0.1', 'plan', T0 + 10_000)).toBe(50);
    expect(tries.take('10.0.0.2', 'plan', T0 + 10_000)).toBeUndefined();
    expect(tries.take('10.0.0.1', 'other', T0 + 10_000)).toBeUndefined();
    expect(tries.take('10.0.0.1', 'plan', T0 + 60_000)).toBeUndefined();
  });

  it('a full table refuses no one who has not failed, on an attacked link or any other', () => {
    const tries = createPasswordTries();
    // One try from each of 1,000 addresses on each of 100 links: the 100,000 pairs the table holds.
    for (let link = 0; link < 100; link++) expect(tryFrom(tries, '198.51.', 1000, `link${link}`, T0 + 1)).toBe(0);
    expect(tries.take('203.0.113.9', 'link7', T0 + 2)).toBeUndefined(); // attacked
    expect(tries.take('203.0.113.9', 'quiet', T0 + 2)).toBeUndefined(); // nobody tried it
    // And it keeps holding: a second wave of new clients is refused nothing either.
    expect(tryFrom(tries, '2001:db8:1::', 20_000, 'quiet', T0 + 3)).toBe(0);
  });

  it('a client who used its tries stays refused while other clients churn the table within its bounds', () => {
    const tries = createPasswordTries();
    for (let i = 0; i < TRIES_PER_MINUTE; i++) tries.take('guesser', 'plan', T0);
    // Fewer than MAX_PAIRS_PER_LINK newer clients on its link, and fewer than MAX_PAIRS newer pairs in all.
    tryFrom(tries, 'same-link-', MAX_PAIRS_PER_LINK - 1, 'plan', T0 + 1);
    for (let link = 0; link < 8; link++) tryFrom(tries, 'elsewhere-', MAX_PAIRS_PER_LINK, `other${link}`, T0 + 2);
    expect(tries.take('guesser', 'plan', T0 + 3)).toBeGreaterThan(0);
    // One link's crowd pushes out only its own link's counts: another link's failed client stays refused.
    for (let i = 0; i < TRIES_PER_MINUTE; i++) tries.take('other-guesser', 'kept', T0 + 4);
    tryFrom(tries, 'crowd-', 2 * MAX_PAIRS_PER_LINK, 'plan', T0 + 5);
    expect(tries.take('other-guesser', 'kept', T0 + 6)).toBeGreaterThan(0);
  });

  it('forgets the oldest first once a link or the table is full (the bound of the guarantee)', () => {
    const tries = createPasswordTries({ maxPairs: 10, maxPairsPerLink: 4 });
    for (let i = 0; i < TRIES_PER_MINUTE; i++) tries.take('guesser', 'plan', T0);
    tryFrom(tries, 'next-', 3, 'plan', T0 + 1);
    expect(tries.take('guesser', 'plan', T0 + 2)).toBeGreaterThan(0);
    tryFrom(tries, 'more-', 1, 'plan', T0 + 3); // the fourth newer client on the link: the guesser's window goes
    expect(tries.take('guesser', 'plan', T0 + 4)).toBeUndefined();
    expect(MAX_PAIRS).toBeGreaterThanOrEqual(10 * MAX_PAIRS_PER_LINK);
  });
});
