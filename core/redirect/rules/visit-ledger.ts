import type { Link } from '../../store/link-store.js';

/**
 * How many clicks a link with `max_visits` has had, as this process knows it: the total its store
 * holds plus the clicks this process let through that the store may not hold yet.
 *
 * Clicks reach the store in batches (the server writes them once a second), so the store's total
 * alone lags. Each click this process lets through a limited link is noted here at once, in the
 * same turn as the decision, and dropped once the batch holding it is written (`seal` marks what
 * a batch will hold; `written` says it is stored). So one process never lets through more than
 * the limit; several processes sharing a store each see the others' clicks once written, and
 * together may overshoot by what they let through within one batch (docs/link-rules.md). A batch
 * written between the two reads counts twice for that decision: a visitor may be refused one
 * click early, never let through one too many.
 */
export interface VisitLedger {
  /**
   * Whether a visit of `link` (which has `maxVisits`) may go through: its clicks so far are
   * fewer than the limit. When it may and `click` (a click, no bot), the click is noted in the
   * same step, so two visits decided at once never both take the last one. A promise when the
   * store is asked.
   */
  admit(link: Link, click: boolean): boolean | Promise<boolean>;
  /** Marks the clicks noted so far as going into the batch about to be written; its mark for `written`. */
  seal(): number;
  /** The batch of `seal`'s mark is stored: its clicks are in the store's totals now. */
  written(mark: number): void;
}

interface Noted {
  createdAt: number;
  /** Clicks noted since the process started (never goes down). */
  noted: number;
  /** Clicks noted and not yet written, per seal mark. */
  unwritten: Map<number, number>;
  pending: number;
}

/**
 * A `VisitLedger` over `storedClicks` (the store's total for a link, by its code and creation, so
 * a retaken code's previous holder's clicks never count).
 */
export function createVisitLedger(storedClicks: (link: Link) => number | Promise<number>): VisitLedger {
  const notes = new Map<string, Noted>();
  let mark = 0;
  // Store reads under way: a note is dropped only when none is, so a read's before/after count
  // of noted clicks is always of the same note.
  let reading = 0;
  const noteOf = (link: Link): Noted | undefined => {
    const note = notes.get(link.codeKey);
    return note?.createdAt === link.createdAt ? note : undefined;
  };
  const letThrough = (link: Link) => {
    let note = noteOf(link);
    if (note === undefined) {
      note = { createdAt: link.createdAt, noted: 0, unwritten: new Map(), pending: 0 };
      notes.set(link.codeKey, note);
    }
    note.noted += 1;
    note.pending += 1;
    note.unwritten.set(mark, (note.unwritten.get(mark) ?? 0) + 1);
  };
  return {
    admit(link, click) {
      const before = noteOf(link);
      // Read before the store: a batch written meanwhile is then counted twice, never missed.
      const pending = before?.pending ?? 0;
      const noted = before?.noted ?? 0;
      const decide = (stored: number) => {
        const used = stored + pending + ((noteOf(link)?.noted ?? 0) - noted);
        if (used >= (link.maxVisits ?? Number.POSITIVE_INFINITY)) return false;
        if (click) letThrough(link);
        return true;
      };
      const stored = storedClicks(link);
      if (!(stored instanceof Promise)) return decide(stored);
      reading += 1;
      return stored.then(decide).finally(() => {
        reading -= 1;
      });
    },
    seal() {
      return mark++;
    },
    written(sealed) {
      for (const [codeKey, note] of notes) {
        for (const [at, count] of note.unwritten) {
          if (at > sealed) continue;
          note.unwritten.delete(at);
          note.pending -= count;
        }
        if (note.pending === 0 && reading === 0) notes.delete(codeKey);
      }
    },
  };
}
