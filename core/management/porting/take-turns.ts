/**
 * The longest a long task (an import) runs before it lets other requests in. A redirect that
 * arrives meanwhile waits at most about this long behind it.
 */
export const TURN_MS = 5;

type Schedule = (callback: () => void) => unknown;
// Node's setImmediate runs after pending I/O (a redirect's request); a browser or service worker
// has none, and a zero timeout does the same there.
const scheduled: Schedule =
  (globalThis as { setImmediate?: Schedule }).setImmediate ?? ((callback) => setTimeout(callback, 0));

/**
 * A turn-taker for work done in one long loop on a single-threaded server: call `pause()` often
 * (every row); it resolves at once while the current turn lasts, and once `turnMs` has passed it
 * gives the event loop back, so one large import never keeps other requests waiting.
 */
export function createTurns(turnMs = TURN_MS) {
  let turnStarted = performance.now();
  return {
    /** Whether the current turn is over (a caller with nothing to await can then `pause()`). */
    due: () => performance.now() - turnStarted >= turnMs,
    async pause(): Promise<void> {
      if (performance.now() - turnStarted < turnMs) return;
      await new Promise<void>((resume) => scheduled(resume));
      turnStarted = performance.now();
    },
  };
}

export type Turns = ReturnType<typeof createTurns>;
