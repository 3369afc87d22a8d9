/** How often a page asks the background whether it still runs a call the page waits on. */
export const LOST_CALL_CHECK_MS = 1_000;

/** Answers in a row that the background runs no such call, before the page gives up on it. */
const MISSES_TO_GIVE_UP = 2;

/**
 * Settles as `answer` does, or rejects with `lost()` once the background has said twice in a row
 * (`isRunning` resolving `false`) that it runs no such call. Chromium can stop the service worker
 * while a page's message is on its way and then neither deliver nor fail it, so the page would
 * wait forever ("Shortening…" for good); asking again wakes a new worker, which knows nothing
 * of the call. Any other answer (`true`, none from an earlier build, a failed ask) keeps waiting:
 * a long call, an import say, is never cut short. Twice, because one ask may overtake the call.
 */
export function unlessLost<T>(
  answer: Promise<T>,
  isRunning: () => Promise<boolean | undefined>,
  lost: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let misses = 0;
    // Asks do not wait on each other: an ask can be lost the same way the call was.
    const timer = setInterval(() => {
      void isRunning().then(
        (running) => {
          misses = running === false ? misses + 1 : 0;
          if (misses >= MISSES_TO_GIVE_UP) finish(() => reject(lost()));
        },
        () => undefined,
      );
    }, LOST_CALL_CHECK_MS);
    // A promise settles once: an ask answered after the call was is a no-op here.
    const finish = (settle: () => void) => {
      clearInterval(timer);
      settle();
    };
    answer.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
