import { createStringTable, type EncodedVisits } from './encoded-visits.js';

const FIELDS = 8;
/** The fields of a visit that are string indexes (the eighth is its bot flag). */
const STRING_FIELDS = 7;

/** How many visits the chunks hold. */
export function visitCount(chunks: readonly EncodedVisits[] | undefined): number {
  let sum = 0;
  if (chunks !== undefined) for (const chunk of chunks) sum += chunk.at.length;
  return sum;
}

/**
 * The chunks' visits, in order, as one: their columns concatenated and each chunk's string
 * indexes remapped into one dictionary (only the strings some visit uses go along). Visits held
 * for seconds or kept through an outage stay in chunks as the beats made them, so holding them
 * costs a few typed arrays rather than an object per visit; a write merges them once.
 */
export function concatVisits(chunks: readonly EncodedVisits[]): EncodedVisits {
  if (chunks.length === 1) return chunks[0] as EncodedVisits;
  const total = visitCount(chunks);
  const { strings, index } = createStringTable();
  const fields = new Int32Array(total * FIELDS);
  const at = new Float64Array(total);
  let n = 0;
  for (const chunk of chunks) {
    const remap = new Int32Array(chunk.strings.length).fill(-1);
    remap[0] = 0;
    const source = chunk.fields;
    for (let f = 0, o = n * FIELDS; f < source.length; f += FIELDS, o += FIELDS) {
      for (let k = 0; k < STRING_FIELDS; k++) {
        const from = source[f + k] as number;
        let to = remap[from] as number;
        if (to === -1) {
          to = index(chunk.strings[from] as string);
          remap[from] = to;
        }
        fields[o + k] = to;
      }
      fields[o + STRING_FIELDS] = source[f + STRING_FIELDS] as number;
    }
    at.set(chunk.at, n);
    n += chunk.at.length;
  }
  return { strings, fields, at };
}

/**
 * The chunks without their `count` oldest visits (the first ones): what the counter keeps when
 * an outage has kept more visits than it may. A chunk cut in two keeps its dictionary (strings
 * no visit uses any more are dropped at the next merge).
 */
export function dropOldestVisits(chunks: readonly EncodedVisits[], count: number): EncodedVisits[] {
  const kept: EncodedVisits[] = [];
  let left = count;
  for (const chunk of chunks) {
    const size = chunk.at.length;
    if (left >= size) {
      left -= size;
      continue;
    }
    if (left === 0) kept.push(chunk);
    else {
      kept.push({ strings: chunk.strings, fields: chunk.fields.slice(left * FIELDS), at: chunk.at.slice(left) });
      left = 0;
    }
  }
  return kept;
}
