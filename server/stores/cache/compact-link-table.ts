import type { LocatedLink } from '../../../core/redirect/resolve.js';
import type { Link } from '../../../core/store/link-store.js';
import { readRecord, recordBytes, recordBytesAt, recordHasKey, slotOfRecord, writeRecord } from './cache-records.js';

// Per slot: record offset u32, hash u32, expiresAt and createdAt f64, trusted-until u32
// (seconds from the table's origin), referenced u8.
const SLOT_BYTES = 4 + 4 + 8 + 8 + 4 + 1;
const NONE = 0xffff_ffff;
const MIN_SLOTS = 1024;
const MIN_ARENA_BYTES = 64 * 1024;
// A full arena is compacted after evicting down to this share of it, so that the next
// compaction (a copy of every live byte) is a tenth of the arena's worth of new links away.
const LIVE_SHARE_AFTER_COMPACTION = 0.9;
// Links read last, as objects, by slot (direct-mapped): see `linkAt`.
const READ_LINKS = 64;

/** A copy of `array` with room for `length` elements (the rest zero). */
function grown<T extends Uint8Array | Uint32Array | Float64Array>(array: T, length: number): T {
  const copy = new (array.constructor as new (length: number) => T)(length);
  copy.set(array);
  return copy;
}

/** Index cells for this many slots: a power of two, at most half of them in use. */
const indexCellsFor = (slots: number) => (slots === 0 ? 0 : 2 ** Math.ceil(Math.log2(slots * 2)));
const fixedBytesFor = (slots: number) => slots * SLOT_BYTES + indexCellsFor(slots) * 4;

export type CompactLinkTable = ReturnType<typeof createCompactLinkTable>;

/**
 * Links kept as bytes, not objects: a V8 object, its strings and a map entry per link cost
 * several hundred bytes, and a million links would not fit a sensible budget. Each link is a
 * record in one arena (see `cache-records.ts`), a slot of fixed-width numbers, and a cell of an
 * open-addressing index from hash to slot: about 110 bytes for a link of 60 ASCII characters
 * under a 7-letter code. Eviction is CLOCK (a referenced bit per slot, cleared by a sweeping
 * hand): nearly LRU, with nothing to relink on a hit.
 *
 * The arrays grow by doubling (a copy; the old one is garbage at once); `bytes` is what they
 * hold, and never exceeds `maxBytes`. Evicted records leave holes in the arena, which is
 * compacted in place (one pass, in record order) when it is full.
 */
export function createCompactLinkTable(options: { maxEntries: number; maxBytes: number }) {
  const { maxBytes } = options;
  const maxSlots = Math.max(1, options.maxEntries);
  let offsets = new Uint32Array(0);
  let hashes = new Uint32Array(0); // a free slot holds the next free slot here
  let expires = new Float64Array(0);
  let created = new Float64Array(0);
  let trustedUntil = new Uint32Array(0);
  let referenced = new Uint8Array(0);
  let slots = 0;
  let freeSlot = NONE;
  let hand = 0;
  let count = 0;
  let index = new Int32Array(0); // slot + 1; 0 is an empty cell
  let mask = -1;
  let arena = Buffer.alloc(0);
  let used = 0; // bytes written, holes included
  let scratch = Buffer.alloc(256); // a link's record as it would be written, to compare with its place
  let live = 0; // bytes of records still held
  // A slot's entry here is the link its record holds, until `remove` empties the slot: a record
  // is never rewritten in place (compaction moves it unchanged), so no other write can stale it.
  const readLinks: Array<LocatedLink | undefined> = new Array(READ_LINKS).fill(undefined);
  const readSlots = new Int32Array(READ_LINKS).fill(-1);
  // A record bigger than this is not cached: it would push out too many others.
  const maxRecordBytes = Math.max(4096, Math.floor(maxBytes / 32));

  const indexInsert = (slot: number) => {
    let i = (hashes[slot] as number) & mask;
    while (index[i] !== 0) i = (i + 1) & mask;
    index[i] = slot + 1;
  };
  /** Removes a slot from the index, shifting back the entries after it (no tombstones). */
  const indexDelete = (slot: number) => {
    let hole = (hashes[slot] as number) & mask;
    while (index[hole] !== slot + 1) hole = (hole + 1) & mask;
    for (let j = (hole + 1) & mask; index[j] !== 0; j = (j + 1) & mask) {
      const home = (hashes[(index[j] as number) - 1] as number) & mask;
      if (hole <= j ? home <= hole || home > j : home <= hole && home > j) {
        index[hole] = index[j] as number;
        hole = j;
      }
    }
    index[hole] = 0;
  };

  const find = (key: string, hash: number): number => {
    if (count === 0) return -1;
    for (let i = hash & mask; index[i] !== 0; i = (i + 1) & mask) {
      const slot = (index[i] as number) - 1;
      if (hashes[slot] === hash && recordHasKey(arena, offsets[slot] as number, key)) return slot;
    }
    return -1;
  };

  const remove = (slot: number) => {
    const read = slot % READ_LINKS;
    if (readSlots[read] === slot) {
      readSlots[read] = -1;
      readLinks[read] = undefined;
    }
    indexDelete(slot);
    live -= recordBytesAt(arena, offsets[slot] as number);
    offsets[slot] = NONE;
    referenced[slot] = 0;
    hashes[slot] = freeSlot;
    freeSlot = slot;
    count--;
  };

  /**
   * The slot CLOCK evicts next: the first unreferenced one from the hand on, clearing the bits it
   * passes. The hand stays on it, so asking again (a newcomer refused, then back) names it again.
   */
  const victim = (): number => {
    if (count === 0) return -1;
    for (;;) {
      if (offsets[hand] !== NONE) {
        if (referenced[hand] === 0) return hand;
        referenced[hand] = 0;
      }
      hand = hand + 1 < slots ? hand + 1 : 0;
    }
  };

  const nextSlots = () => Math.min(maxSlots, Math.max(MIN_SLOTS, slots * 2));
  const canGrowSlots = () => nextSlots() > slots && fixedBytesFor(nextSlots()) + arena.length <= maxBytes;
  const growSlots = (next = nextSlots()): boolean => {
    if (next <= slots || fixedBytesFor(next) + arena.length > maxBytes) return false;
    offsets = grown(offsets, next);
    hashes = grown(hashes, next);
    expires = grown(expires, next);
    created = grown(created, next);
    trustedUntil = grown(trustedUntil, next);
    referenced = grown(referenced, next);
    for (let slot = next - 1; slot >= slots; slot--) {
      offsets[slot] = NONE;
      hashes[slot] = freeSlot;
      freeSlot = slot;
    }
    slots = next;
    if (indexCellsFor(slots) !== index.length) {
      index = new Int32Array(indexCellsFor(slots));
      mask = index.length - 1;
      for (let slot = 0; slot < slots; slot++) if (offsets[slot] !== NONE) indexInsert(slot);
    }
    return true;
  };

  /** Moves every live record to the front of the arena, in record order. */
  const compact = () => {
    let write = 0;
    for (let at = 0; at < used; ) {
      const length = recordBytesAt(arena, at);
      const slot = slotOfRecord(arena, at);
      if (offsets[slot] === at) {
        if (write !== at) arena.copyWithin(write, at, at + length);
        offsets[slot] = write;
        write += length;
      }
      at += length;
    }
    used = write;
  };

  /** Room at the end of the arena for `length` bytes: grow it, or evict and compact. */
  const makeRoom = (length: number): boolean => {
    while (used + length > arena.length) {
      const limit = maxBytes - fixedBytesFor(slots);
      if (arena.length < limit) {
        const larger = Buffer.allocUnsafeSlow(
          Math.min(limit, Math.max(arena.length * 2, used + length, MIN_ARENA_BYTES)),
        );
        arena.copy(larger, 0, 0, used);
        arena = larger;
        continue;
      }
      const target = Math.floor(arena.length * LIVE_SHARE_AFTER_COMPACTION) - length;
      while (live > target && count > 0) remove(victim());
      compact();
      if (used + length > arena.length) return false;
    }
    return true;
  };

  /**
   * Takes the whole budget at once: slots for as many records of `typicalRecordBytes` as it
   * holds, the arena the rest. Filling a cache by doubling leaves each outgrown array to the
   * allocator, which keeps much of it (a million links peaked near twice their bytes); warming
   * fills it anyway. Pages of the arena not yet written take no memory.
   */
  const reserve = (typicalRecordBytes: number) => {
    // The most slots whose arrays, index and typical records fit, for each size of the index.
    let target = slots;
    for (let cells = indexCellsFor(MIN_SLOTS); cells / 2 <= maxSlots * 2; cells *= 2) {
      const fit = Math.floor((maxBytes - cells * 4) / (SLOT_BYTES + typicalRecordBytes));
      const next = Math.min(maxSlots, cells / 2, fit);
      if (indexCellsFor(next) === cells) target = Math.max(target, next);
    }
    growSlots(target);
    const limit = maxBytes - fixedBytesFor(slots);
    if (arena.length >= limit) return;
    const whole = Buffer.allocUnsafeSlow(limit);
    arena.copy(whole, 0, 0, used);
    arena = whole;
  };

  return {
    get size() {
      return count;
    },
    reserve,
    /** Bytes held by every array of the table; never more than `maxBytes`. */
    get bytes() {
      return fixedBytesFor(slots) + arena.length;
    },
    /** The slot of this code key (`hash` is its `hashOf`), or -1. */
    find,
    remove,
    victim,
    hashAt: (slot: number) => hashes[slot] as number,
    expiresAt: (slot: number) => expires[slot] as number,
    /** The `trustedUntil` a slot was stored with. */
    trustedUntilAt: (slot: number) => trustedUntil[slot] as number,
    /** Notes a hit, so CLOCK passes the slot by once. */
    touch(slot: number) {
      referenced[slot] = 1;
    },
    /** Whether keeping one more link means evicting another first. */
    isFull: () => (freeSlot === NONE && !canGrowSlots()) || used >= maxBytes - fixedBytesFor(slots) - 1024,
    /**
     * The link in a slot. The table keeps no object per link, but the links it read last (one per
     * slot modulo 64) are given again while their slots hold them: a link clicked over and over
     * (the one a newsletter or a post sends everyone to) is decoded once, not at every click.
     * Links are immutable, so sharing one between requests is safe.
     */
    linkAt(slot: number, key: string): LocatedLink {
      const at = slot % READ_LINKS;
      if (readSlots[at] === slot) return readLinks[at] as LocatedLink;
      const link = readRecord(arena, offsets[slot] as number, key, created[slot] as number, expires[slot] as number);
      readSlots[at] = slot;
      readLinks[at] = link;
      return link;
    },
    /**
     * Keeps a link (replacing any under its key), evicting as needed; false when it is not kept
     * (too big, or text a record cannot hold exactly). `trustedUntil`: a whole number of seconds
     * that the caller measures from an origin of its own.
     */
    insert(key: string, hash: number, link: Link, href: string, trustedUntilSeconds: number): boolean {
      const length = recordBytes(key, link, href);
      if (length === undefined || length > maxRecordBytes) return false;
      const existing = find(key, hash);
      if (existing !== -1) remove(existing);
      if (freeSlot === NONE && !growSlots()) {
        if (count === 0) return false; // not even the first slots fit the budget
        remove(victim());
      }
      if (!makeRoom(length)) return false;
      const slot = freeSlot;
      freeSlot = hashes[slot] as number;
      writeRecord(arena, used, slot, key, link, href);
      offsets[slot] = used;
      used += length;
      live += length;
      hashes[slot] = hash;
      expires[slot] = link.expiresAt;
      created[slot] = link.createdAt;
      trustedUntil[slot] = trustedUntilSeconds;
      referenced[slot] = 0;
      count++;
      indexInsert(slot);
      return true;
    },
    /**
     * Keeps a link read again after its trust ran out, in the place its key holds: the record as
     * it is when the link is unchanged (only its trust renewed), else the link as read now. It
     * does not compete for that place again (an unchanged link refused by `victim`'s frequency
     * would be read from the store at every request); false when the key holds no place (removed
     * meanwhile) or the link cannot be kept.
     */
    renew(key: string, hash: number, link: Link, href: string, trustedUntilSeconds: number): boolean {
      const slot = find(key, hash);
      if (slot === -1) return false;
      const at = offsets[slot] as number;
      const length = recordBytes(key, link, href);
      if (
        length !== undefined &&
        length === recordBytesAt(arena, at) &&
        expires[slot] === link.expiresAt &&
        created[slot] === link.createdAt
      ) {
        if (scratch.length < length) scratch = Buffer.alloc(Math.max(length, scratch.length * 2));
        writeRecord(scratch, 0, slot, key, link, href);
        if (scratch.compare(arena, at, at + length, 0, length) === 0) {
          trustedUntil[slot] = trustedUntilSeconds;
          return true;
        }
      }
      return this.insert(key, hash, link, href, trustedUntilSeconds);
    },
    clear() {
      for (let slot = 0; slot < slots; slot++) if (offsets[slot] !== NONE) remove(slot);
      used = 0;
    },
  };
}
