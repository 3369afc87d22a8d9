import { type ClickRecorder, dayOf } from '../../core/rules/clicks.js';
import type { CountedClickBatch, EncodedVisits } from './encoded-visits.js';
import { createRawVisitColumns } from './raw-visit-columns.js';
import { concatVisits, dropOldestVisits, visitCount } from './visit-chunks.js';
import { encodeRawVisits } from './visit-encoder.js';
import type { VisitParser } from './visit-parser.js';

const DAY_MS = 86_400_000;
/** Visits are held only while they average at least this many a link (see `holdVisitsMs`). */
const VISITS_A_LINK_WORTH_HOLDING = 2;

export interface ClickCounterOptions {
  /**
   * Writes one batch (one statement or transaction on the store); rejects when the store cannot
   * take it. Its visits come encoded (`encodedVisits`), as they were kept.
   */
  write: (batch: CountedClickBatch) => Promise<void>;
  logger: {
    info: (fields: object, message: string) => void;
    warn: (fields: object, message: string) => void;
    error: (fields: object, message: string) => void;
  };
  /** How often counts are written (default 1 s: `kill -9` loses at most this much). */
  writeEveryMs?: number;
  /**
   * The most (link, day) counts kept while the store refuses them; beyond it the oldest are
   * dropped and their number logged, so an outage cannot exhaust memory (default 100,000: ~10 MB).
   */
  maxKeptCounts?: number;
  /**
   * Makes visits of the raw strings redirects hand over (`count`'s third argument), on the beat:
   * its `facts` parse each distinct User-Agent, referrer and country of a beat once, never on the
   * redirect. A bot's visit is kept but is no click.
   */
  parseVisit?: VisitParser;
  /** Visits older than this many days are folded into daily counts by each batch (bounded). */
  visitsRetentionDays?: number;
  /** The most visits kept while the store refuses them; beyond it the oldest lose their detail. */
  maxKeptVisits?: number;
  /**
   * Under load, visits wait up to this long (default 5 s) to be written together: a stored row
   * holds a link's visits of one write, so a busy second's few visits per link would cost a row
   * each. Fewer than `writeVisitsBelow` visits waiting (default 2,000) are written on the beat,
   * and so are visits spread over nearly as many links (under two a link): they would take a row
   * each however long they waited, so holding them would only cost memory.
   */
  holdVisitsMs?: number;
  writeVisitsBelow?: number;
  now?: () => number;
  /**
   * Told which clicks each write holds (`seal` before it, `written` once stored): the handler's
   * ledger of limited links' clicks (`VisitLedger`), so a limit counts a click once, whether it
   * is still here or already in the store's total.
   */
  ledger?: { seal(): number; written(mark: number): void };
}

interface DayCounts {
  day: number;
  counts: Map<string, number>;
  /** Chunks as the beats encoded them, oldest first; merged into one when written. */
  visits?: EncodedVisits[];
}

/**
 * Counts clicks in memory and writes them in batches. A click is one `Map` update of the
 * current UTC day's counts (no allocation once a link has been clicked this second); every
 * `writeEveryMs` the counts are sealed and written, one batch per day, oldest first, one at a
 * time. A batch the store refuses is kept (merged with later counts of its day) and tried again
 * on the next beat, so counting never waits for the store and an outage only delays counts.
 */
export function createClickCounter(options: ClickCounterOptions) {
  const { write, logger } = options;
  const maxKept = options.maxKeptCounts ?? 100_000;
  const maxKeptVisits = options.maxKeptVisits ?? 100_000;
  const { parseVisit, ledger } = options;
  const now = options.now ?? Date.now;
  // Clicks with a visit, as handed over (columns: no object kept per click), encoded on the beat.
  const raws = createRawVisitColumns();
  let current = new Map<string, number>();
  let currentDay = 0;
  let dayStart = 0;
  let dayEnd = 0; // an empty day: the first click starts one
  /** Sealed counts not yet written, oldest day first; the batch being written is not among them. */
  const unwritten: DayCounts[] = [];
  let writing: Promise<boolean> | undefined;
  let failing = false;
  const holdVisitsMs = options.holdVisitsMs ?? 5000;
  const writeVisitsBelow = options.writeVisitsBelow ?? 2000;
  /** Visits held back while their clicks are written (chunks, oldest first), and when visits were last written. */
  let held: EncodedVisits[] = [];
  /** Links the held visits were counted for, beat by beat (a link of two beats counts twice). */
  let heldLinks = 0;
  let visitsWrittenAt = now();
  let closing = false;
  /** Set while `flushAll` writes: held visits go with their clicks, as at closing. */
  let releasing = false;

  /** Adds counts to what is kept for their day (the same day twice would be written twice). */
  const keep = ({ day, counts, visits }: DayCounts, atFront: boolean) => {
    const same = unwritten.find((kept) => kept.day === day);
    if (same === undefined) {
      const kept: DayCounts = visits === undefined ? { day, counts } : { day, counts, visits };
      if (atFront) unwritten.unshift(kept);
      else unwritten.push(kept);
      unwritten.sort((a, b) => a.day - b.day);
      return;
    }
    for (const [codeKey, count] of counts) same.counts.set(codeKey, (same.counts.get(codeKey) ?? 0) + count);
    if (visits !== undefined) {
      if (same.visits === undefined) same.visits = visits;
      else if (atFront) same.visits = visits.concat(same.visits);
      else for (const chunk of visits) same.visits.push(chunk);
    }
  };
  /** The visits handed over since the last beat, encoded: a day's counts (bots apart) and visits. */
  const parseRaw = () => {
    if (raws.length === 0 || parseVisit === undefined) return;
    for (const { day, counts, visits } of encodeRawVisits(raws.take(), parseVisit.facts))
      keep({ day, counts, visits: [visits] }, false);
  };
  const seal = () => {
    parseRaw();
    if (current.size === 0) return;
    keep({ day: currentDay, counts: current }, false);
    current = new Map();
  };
  /** Drops the oldest kept counts beyond the bound, and says how many clicks went with them. */
  const enforceBound = () => {
    let kept = unwritten.reduce((sum, { counts }) => sum + counts.size, 0);
    let dropped = 0;
    while (kept > maxKept && unwritten.length > 0) {
      const oldest = unwritten[0] as DayCounts;
      for (const [codeKey, count] of oldest.counts) {
        if (kept <= maxKept) break;
        oldest.counts.delete(codeKey);
        dropped += count;
        kept--;
      }
      if (oldest.counts.size === 0) {
        unwritten.shift();
        if (oldest.visits !== undefined) for (const chunk of oldest.visits) held.push(chunk); // its visits stay
      }
    }
    if (dropped > 0)
      logger.error({ droppedClicks: dropped }, `${dropped} clicks were dropped: the store refused them too long`);
    let visits = unwritten.reduce((sum, kept) => sum + visitCount(kept.visits), 0);
    let droppedVisits = 0;
    for (const kept of unwritten) {
      if (visits <= maxKeptVisits) break;
      if (kept.visits === undefined) continue;
      const cut = Math.min(visitCount(kept.visits), visits - maxKeptVisits);
      kept.visits = dropOldestVisits(kept.visits, cut);
      visits -= cut;
      droppedVisits += cut;
    }
    if (droppedVisits > 0)
      logger.error(
        { droppedVisits },
        `${droppedVisits} visits lost their detail (their clicks are kept): the store refused them too long`,
      );
  };
  /**
   * Holds this beat's visits back (their clicks still go) while many are waiting, two or more a
   * link, and the last visits were written less than `holdVisitsMs` ago; else hands every held visit to the first
   * batch written (an empty one when no counts are waiting).
   */
  const holdOrRelease = () => {
    let waiting = visitCount(held);
    let links = heldLinks;
    for (const kept of unwritten) {
      if (kept.visits === undefined) continue;
      waiting += visitCount(kept.visits);
      links += kept.counts.size;
    }
    if (waiting === 0) return;
    const release =
      closing ||
      releasing ||
      waiting < writeVisitsBelow ||
      waiting < VISITS_A_LINK_WORTH_HOLDING * links ||
      waiting >= maxKeptVisits ||
      now() - visitsWrittenAt >= holdVisitsMs;
    if (!release) {
      for (const kept of unwritten) {
        if (kept.visits === undefined) continue;
        for (const chunk of kept.visits) held.push(chunk);
        kept.visits = undefined;
        heldLinks += kept.counts.size;
      }
      return;
    }
    if (held.length === 0) return;
    if (unwritten.length === 0) unwritten.push({ day: dayOf(now()), counts: new Map() });
    const first = unwritten[0] as DayCounts;
    first.visits = first.visits === undefined ? held : held.concat(first.visits);
    held = [];
    heldLinks = 0;
  };
  /** Writes every kept batch in turn; false when the store refused one (it stays kept). */
  const writeKept = async (): Promise<boolean> => {
    holdOrRelease();
    while (unwritten.length > 0) {
      const next = unwritten.shift() as DayCounts;
      const batch: CountedClickBatch = {
        day: next.day,
        codeKeys: [...next.counts.keys()],
        counts: [...next.counts.values()],
      };
      if (next.visits !== undefined && visitCount(next.visits) > 0) {
        // Merged once: a refused batch keeps the merged chunk, in front of later visits.
        const merged = concatVisits(next.visits);
        next.visits = [merged];
        batch.encodedVisits = merged;
        visitsWrittenAt = now();
      }
      if (options.visitsRetentionDays !== undefined)
        batch.foldBefore = Math.floor(now() / 1000) - options.visitsRetentionDays * 86_400;
      try {
        await write(batch);
      } catch (error) {
        keep(next, true);
        enforceBound();
        if (!failing) logger.warn({ err: error }, 'click counts could not be written; they are kept and retried');
        failing = true;
        return false;
      }
      if (failing) logger.info({}, 'click counts are being written again');
      failing = false;
    }
    return true;
  };
  /** Seals the counts so far and writes them (joining a write under way rather than racing it). */
  const flush = (): Promise<boolean> => {
    if (writing) return writing;
    const mark = ledger?.seal();
    seal();
    writing = writeKept()
      .then((written) => {
        // Everything counted before this seal is stored (a refused batch is kept for the next one).
        if (written && mark !== undefined) ledger?.written(mark);
        return written;
      })
      .finally(() => {
        writing = undefined;
      });
    return writing;
  };
  /** Writes every click and visit counted so far, held visits too, after any write under way. */
  const flushAll = async (): Promise<boolean> => {
    while (writing) await writing;
    releasing = true;
    try {
      return await flush();
    } finally {
      releasing = false;
    }
  };
  const timer = setInterval(() => void flush(), options.writeEveryMs ?? 1000);
  timer.unref();

  const count: ClickRecorder = (codeKey, at, visit) => {
    if (visit !== undefined && parseVisit !== undefined) {
      raws.push(codeKey, at, visit);
      return;
    }
    if (at >= dayEnd || at < dayStart) {
      seal();
      currentDay = dayOf(at);
      dayStart = currentDay * DAY_MS;
      dayEnd = dayStart + DAY_MS;
    }
    current.set(codeKey, (current.get(codeKey) ?? 0) + 1);
  };

  const pendingClicks = () => {
    let sum = raws.length;
    for (const { counts } of [...unwritten, { counts: current }]) for (const n of counts.values()) sum += n;
    return sum;
  };

  return {
    count,
    /** Writes what is counted now (tests; shutdown uses `close`). */
    flush,
    /**
     * Writes everything counted so far, visits held back for a fuller row too (see
     * `holdVisitsMs`): before a link's visits are deleted, so none counted before the deletion
     * is written after it. False when the store refused (what it refused stays kept).
     */
    flushAll,
    /** Clicks counted and not yet written (kept ones included). */
    get pending(): number {
      return pendingClicks();
    },
    /**
     * Stops the beat and writes the last counts (before the store closes: SIGTERM loses
     * nothing). A store that still refuses gets a few more tries; what it never takes is logged.
     */
    async close(attempts = 3, retryDelayMs = 250): Promise<void> {
      clearInterval(timer);
      closing = true;
      for (let attempt = 0; attempt < attempts; attempt++) {
        await writing;
        if (await flush()) return;
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
      }
      const lost = pendingClicks();
      if (lost > 0)
        logger.error({ droppedClicks: lost }, `${lost} clicks were not written before exit: the store refused them`);
    },
  };
}

export type ClickCounter = ReturnType<typeof createClickCounter>;
