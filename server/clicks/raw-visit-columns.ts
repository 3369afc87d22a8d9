import type { RawVisit } from '../../core/management/visits/visits.js';

/** The most distinct header values remembered for sharing; beyond it the memory starts over. */
const MAX_SHARED = 4000;

/**
 * One string for every copy of the same header value, so that a second's clicks hold a few
 * hundred User-Agent strings rather than one per click: each request's own copy then dies young
 * instead of being carried through garbage collections until the beat. A lookup, not a parse.
 */
function createSharedStrings() {
  let known = new Map<string, string>();
  return <T extends string | string[] | undefined>(value: T): T => {
    if (typeof value !== 'string') return value;
    const shared = known.get(value);
    if (shared !== undefined) return shared as T;
    if (known.size >= MAX_SHARED) known = new Map();
    known.set(value, value);
    return value;
  };
}

/** The visits handed over since the last beat, as columns (no object kept per click). */
export interface RawVisitBatch {
  codeKeys: string[];
  times: number[];
  /** The visit of click `i` (a scratch object, overwritten by the next call). */
  visitAt(i: number): RawVisit;
}

/**
 * Clicks with a visit, kept as parallel arrays of the header strings a redirect handed over
 * until the counter's beat parses them. The redirect's small object is read at once and dropped,
 * so it never outlives the request; only the rare address of a country lookup is kept per click.
 */
export function createRawVisitColumns() {
  const share = createSharedStrings();
  const empty = () => ({
    codeKeys: [] as string[],
    times: [] as number[],
    agents: [] as Array<string | undefined>,
    referers: [] as Array<string | undefined>,
    countries: [] as Array<string | string[] | undefined>,
    privates: [] as boolean[],
    addresses: new Map<number, Pick<RawVisit, 'peer' | 'forwardedFor'>>(),
  });
  let columns = empty();
  return {
    get length(): number {
      return columns.codeKeys.length;
    },
    push(codeKey: string, at: number, visit: RawVisit): void {
      const i = columns.codeKeys.push(codeKey) - 1;
      columns.times.push(at);
      columns.agents.push(share(visit.userAgent));
      columns.referers.push(share(visit.referer));
      columns.countries.push(share(visit.country));
      columns.privates.push(visit.private);
      if (visit.peer !== undefined || visit.forwardedFor !== undefined)
        columns.addresses.set(i, { peer: visit.peer, forwardedFor: visit.forwardedFor });
    },
    /** The visits so far, leaving none. */
    take(): RawVisitBatch {
      const taken = columns;
      columns = empty();
      const scratch: RawVisit = { referer: undefined, userAgent: undefined, country: undefined, private: false };
      return {
        codeKeys: taken.codeKeys,
        times: taken.times,
        visitAt(i) {
          scratch.referer = taken.referers[i];
          scratch.userAgent = taken.agents[i];
          scratch.country = taken.countries[i];
          scratch.private = taken.privates[i] as boolean;
          const address = taken.addresses.get(i);
          scratch.peer = address?.peer;
          scratch.forwardedFor = address?.forwardedFor;
          return scratch;
        },
      };
    },
  };
}
