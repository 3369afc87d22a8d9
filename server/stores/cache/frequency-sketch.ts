/**
 * How often each code was asked for lately, roughly (a count-min sketch, as TinyLFU uses it):
 * four counters (0–15) per code in a table of about eight per cached entry, all halved every ten
 * entries' worth of lookups so that old popularity fades. A code's estimate is the smallest of
 * its four counters, so it is only overstated when all four are shared with busier codes.
 */
export interface FrequencySketch {
  /** Notes one more request for the code of this hash. */
  count(hash: number): void;
  /** The estimated recent requests (0–15) for the code of this hash. */
  estimate(hash: number): number;
  /** Bytes the table takes. */
  readonly bytes: number;
}

const COUNTERS_PER_ENTRY = 8;
const MIN_COUNTERS = 2 ** 12;
const MAX_COUNTERS = 2 ** 24;

/** A sketch sized for a cache of `entries` links. */
export function createFrequencySketch(entries: number): FrequencySketch {
  const wanted = Math.max(1, entries) * COUNTERS_PER_ENTRY;
  const size = Math.min(MAX_COUNTERS, Math.max(MIN_COUNTERS, 2 ** Math.ceil(Math.log2(wanted))));
  const counters = new Uint8Array(size);
  const mask = size - 1;
  const halveEvery = 10 * Math.max(100, entries);
  let counted = 0;
  const stepOf = (hash: number) => Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) | 1;
  return {
    bytes: counters.byteLength,
    count(hash) {
      const step = stepOf(hash);
      for (let i = 0; i < 4; i++) {
        const at = (hash + i * step) & mask;
        if ((counters[at] as number) < 15) counters[at] = (counters[at] as number) + 1;
      }
      if (++counted >= halveEvery) {
        counted = 0;
        for (let i = 0; i < counters.length; i++) counters[i] = (counters[i] as number) >> 1;
      }
    },
    estimate(hash) {
      const step = stepOf(hash);
      let least = 15;
      for (let i = 0; i < 4; i++) least = Math.min(least, counters[(hash + i * step) & mask] as number);
      return least;
    },
  };
}

/** 32-bit FNV-1a of a string's UTF-16 code units: fast, and spread well enough for fingerprints. */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
