/** Tries each client gets per link within `TRY_WINDOW_MS`. */
export const TRIES_PER_MINUTE = 5;
export const TRY_WINDOW_MS = 60_000;
/** Most (client, link) pairs counted at once in one process; past it the oldest is forgotten. */
export const MAX_PAIRS = 100_000;
/** Most clients counted at once for one link; past it that link's oldest is forgotten. */
export const MAX_PAIRS_PER_LINK = 10_000;

/**
 * Counts password tries per client and link; `take` answers the seconds to wait, or undefined.
 * The handler counts in its own memory (`createPasswordTries`) unless its adapter hands it a
 * count shared by every instance (`HandlerOptions.passwordTries`: the server's, in Redis).
 */
export interface PasswordTries {
  take(client: string, codeKey: string, now: number): number | undefined | Promise<number | undefined>;
}

interface TryWindow {
  readonly client: string;
  readonly codeKey: string;
  start: number;
  count: number;
}

export interface PasswordTriesLimits {
  maxPairs?: number;
  maxPairsPerLink?: number;
}

/**
 * Five tries a minute per client and link (a fixed window from the first try), in this process's
 * memory (a server of several processes without a shared count allows that many per process).
 * Every try counts, right or wrong, since each costs one slow hash.
 *
 * The table is bounded (`MAX_PAIRS` in all, `MAX_PAIRS_PER_LINK` per link) and, when full, forgets
 * its oldest window (of that link, when the link is at its own bound): it never refuses a client
 * for want of room, so filling it (a thousand addresses times a hundred links) locks no one out.
 * What is guaranteed: a client who used its five tries on a link is refused until its minute is
 * over, unless `MAX_PAIRS_PER_LINK` newer clients tried that same link, or `MAX_PAIRS` newer
 * pairs were started in all, within that minute. Each newer pair is a try itself (a slow hash),
 * so forgetting buys a guesser at most 5 tries for every 10,000 it makes from other addresses:
 * no more than those addresses already give it. The per-link bound keeps one link's guessers from
 * pushing out another link's counts unless they try at least ten links at that scale.
 */
export function createPasswordTries(limits: PasswordTriesLimits = {}): PasswordTries {
  const maxPairs = limits.maxPairs ?? MAX_PAIRS;
  const maxPerLink = limits.maxPairsPerLink ?? MAX_PAIRS_PER_LINK;
  // Both in the order windows started (a window that starts again moves to the end): the first
  // is the oldest, so sweeping and evicting take it in O(1).
  const windows = new Map<string, TryWindow>();
  const byLink = new Map<string, Map<string, TryWindow>>();
  const forget = (window: TryWindow) => {
    windows.delete(`${window.client}\n${window.codeKey}`);
    const clients = byLink.get(window.codeKey);
    clients?.delete(window.client);
    if (clients?.size === 0) byLink.delete(window.codeKey);
  };
  const oldest = (map: Map<string, TryWindow> | undefined) => map?.values().next().value;
  return {
    take(client, codeKey, now) {
      const pair = `${client}\n${codeKey}`;
      let window = windows.get(pair);
      if (window !== undefined && now - window.start >= TRY_WINDOW_MS) {
        forget(window);
        window = undefined;
      }
      if (window === undefined) {
        for (let first = oldest(windows); first && now - first.start >= TRY_WINDOW_MS; first = oldest(windows)) {
          forget(first);
        }
        const clients = byLink.get(codeKey) ?? new Map<string, TryWindow>();
        if (clients.size >= maxPerLink) forget(oldest(clients) as TryWindow);
        else if (windows.size >= maxPairs) forget(oldest(windows) as TryWindow);
        window = { client, codeKey, start: now, count: 0 };
        windows.set(pair, window);
        clients.set(client, window);
        byLink.set(codeKey, clients);
      }
      if (window.count >= TRIES_PER_MINUTE) return Math.max(1, Math.ceil((window.start + TRY_WINDOW_MS - now) / 1000));
      window.count += 1;
      return undefined;
    },
  };
}
