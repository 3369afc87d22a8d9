/** Tries each client gets per link within `TRY_WINDOW_MS`. */
export const TRIES_PER_MINUTE = 5;
export const TRY_WINDOW_MS = 60_000;
// Past this many (client, link) pairs at once, old windows are swept; if all are current, new
// pairs are refused (429) rather than letting a flood of addresses grow the map without bound.
const MAX_PAIRS = 100_000;

/** Counts password tries per client and link; `take` answers the seconds to wait, or undefined. */
export interface PasswordTries {
  take(client: string, codeKey: string, now: number): number | undefined;
}

/**
 * Five tries a minute per client and link (a fixed window from the first try), in this process's
 * memory: a server of several processes allows that many per process, which still bounds a
 * guesser to a handful of scrypt checks a minute per link and address. Every try counts, right or
 * wrong, since each costs one slow hash.
 */
export function createPasswordTries(): PasswordTries {
  const windows = new Map<string, { start: number; count: number }>();
  const sweep = (now: number) => {
    for (const [pair, window] of windows) if (now - window.start >= TRY_WINDOW_MS) windows.delete(pair);
  };
  return {
    take(client, codeKey, now) {
      const pair = `${client}\n${codeKey}`;
      let window = windows.get(pair);
      if (window !== undefined && now - window.start >= TRY_WINDOW_MS) window = undefined;
      if (window === undefined) {
        if (windows.size >= MAX_PAIRS) sweep(now);
        if (windows.size >= MAX_PAIRS) return Math.ceil(TRY_WINDOW_MS / 1000);
        window = { start: now, count: 0 };
        windows.set(pair, window);
      }
      if (window.count >= TRIES_PER_MINUTE) return Math.max(1, Math.ceil((window.start + TRY_WINDOW_MS - now) / 1000));
      window.count += 1;
      return undefined;
    },
  };
}
