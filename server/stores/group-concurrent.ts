export interface GroupConcurrentOptions {
  /** Groups under way at once; calls made while all are busy wait for the next free one. */
  maxInFlight: number;
  /** The most calls one group takes (a bound on one statement's size). */
  maxGroupSize: number;
}

/**
 * Turns a function over many items into one over a single item, grouping the calls that arrive
 * while earlier groups are under way. An idle caller is served at once, alone; a busy one pays
 * one round trip (and one commit) for many calls instead of one each. `runGroup` answers its
 * items in order; if it throws, every call of that group rejects with the error.
 */
export function groupConcurrent<Item, Result>(
  runGroup: (items: Item[]) => Promise<Result[]>,
  { maxInFlight, maxGroupSize }: GroupConcurrentOptions,
): (item: Item) => Promise<Result> {
  type Waiting = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void };
  const waiting: Waiting[] = [];
  let inFlight = 0;

  const runNext = () => {
    while (inFlight < maxInFlight && waiting.length > 0) {
      const group = waiting.splice(0, maxGroupSize);
      inFlight += 1;
      runGroup(group.map(({ item }) => item))
        .then(
          (results) => {
            for (const [i, { resolve }] of group.entries()) resolve(results[i] as Result);
          },
          (error: unknown) => {
            for (const { reject } of group) reject(error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          runNext();
        });
    }
  };

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      runNext();
    });
}
