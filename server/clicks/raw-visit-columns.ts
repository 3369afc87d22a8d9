import type { RawVisit } from '../../core/management/visits/visits.js';

/** Where a click's string is none (no such header). */
export const NO_STRING = -1;

const FIRST_CAPACITY = 1024;

/**
 * The clicks with a visit handed over since the last beat: every distinct string once in
 * `strings`, and per click its indexes into it (`NO_STRING` for a header not sent), its time in
 * ms and whether it asked not to be tracked. The rare address of a country lookup is kept per
 * click index; the address is never stored.
 */
export interface RawVisitBatch {
  length: number;
  strings: string[];
  codeKeys: Int32Array;
  agents: Int32Array;
  referers: Int32Array;
  countries: Int32Array;
  times: Float64Array;
  privates: Uint8Array;
  addresses: Map<number, Pick<RawVisit, 'peer' | 'forwardedFor'>>;
}

const grown = <T extends Int32Array | Float64Array | Uint8Array>(column: T, capacity: number): T => {
  const bigger = new (column.constructor as new (size: number) => T)(capacity);
  bigger.set(column);
  return bigger;
};

/**
 * Clicks with a visit, kept until the counter's beat as typed-array columns of indexes into the
 * beat's own dictionary of strings: a second's clicks hold a few hundred User-Agent strings and
 * no object per click, so nothing a click brings is carried through garbage collections but its
 * distinct strings. The redirect's small object is read at once and dropped (it dies young).
 * Interning is a `Map` lookup per string, not a parse.
 */
export function createRawVisitColumns() {
  let indexOf = new Map<string, number>();
  let batch: RawVisitBatch;
  const reset = (capacity: number) => {
    indexOf = new Map();
    batch = {
      length: 0,
      strings: [],
      codeKeys: new Int32Array(capacity),
      agents: new Int32Array(capacity),
      referers: new Int32Array(capacity),
      countries: new Int32Array(capacity),
      times: new Float64Array(capacity),
      privates: new Uint8Array(capacity),
      addresses: new Map(),
    };
  };
  reset(FIRST_CAPACITY);
  const intern = (value: string | string[] | undefined): number => {
    const text = typeof value === 'string' ? value : value?.[0]; // a repeated header: its first, as parsed
    if (text === undefined) return NO_STRING;
    let at = indexOf.get(text);
    if (at === undefined) {
      at = batch.strings.push(text) - 1;
      indexOf.set(text, at);
    }
    return at;
  };
  const grow = () => {
    const capacity = batch.codeKeys.length * 2;
    batch.codeKeys = grown(batch.codeKeys, capacity);
    batch.agents = grown(batch.agents, capacity);
    batch.referers = grown(batch.referers, capacity);
    batch.countries = grown(batch.countries, capacity);
    batch.times = grown(batch.times, capacity);
    batch.privates = grown(batch.privates, capacity);
  };
  return {
    get length(): number {
      return batch.length;
    },
    push(codeKey: string, at: number, visit: RawVisit): void {
      const i = batch.length;
      if (i === batch.codeKeys.length) grow();
      batch.codeKeys[i] = intern(codeKey);
      batch.agents[i] = intern(visit.userAgent);
      batch.referers[i] = intern(visit.referer);
      batch.countries[i] = intern(visit.country);
      batch.times[i] = at;
      batch.privates[i] = visit.private ? 1 : 0;
      if (visit.peer !== undefined || visit.forwardedFor !== undefined)
        batch.addresses.set(i, { peer: visit.peer, forwardedFor: visit.forwardedFor });
      batch.length = i + 1;
    },
    /** The clicks so far, leaving none (the next beat starts about as big as this one ended). */
    take(): RawVisitBatch {
      const taken = batch;
      reset(Math.max(FIRST_CAPACITY, taken.length + (taken.length >> 2)));
      return taken;
    },
  };
}
