import type Database from 'better-sqlite3';
import { FOLD_PER_BATCH } from '../../../core/management/visits/visits.js';
import { CLICK_DAYS_KEPT, type ClickBatch, type LinkClicks } from '../../../core/rules/clicks.js';
import { type CountedClickBatch, type EncodedVisits, encodeVisits } from '../../clicks/encoded-visits.js';
import type { DayCounts, PackedVisitRow, visitPackerOf } from '../../clicks/packed-visits.js';
import { SQLITE_VISIT_SQL } from './sqlite-visits.js';

/** A click batch as the writer thread takes it: its visits encoded (see `EncodedVisits`). */
export type SqliteClickBatch = Omit<ClickBatch, 'visits'> & { visits?: EncodedVisits };

/**
 * The writer thread's form of a batch: its visits' strings once each, packed into rows there.
 * The click counter's visits come encoded already and go as they are; `visits` rows (the store
 * contract's form) are encoded here.
 */
export function sqliteClickBatch({ visits, encodedVisits, ...rest }: CountedClickBatch): SqliteClickBatch {
  if (encodedVisits !== undefined && encodedVisits.at.length > 0) return { ...rest, visits: encodedVisits };
  return visits === undefined || visits.length === 0 ? rest : { ...rest, visits: encodeVisits(visits) };
}

export type ClickCommitterArgs = {
  addTotalSql: string;
  addDaySql: string;
  purgeSql: string;
  keepDays: number;
  linkIdSql: string;
  addVisitRowSql: string;
  addDayCountsSql: string;
  newDayCountsSql: string;
  oldestVisitSql: string;
  purgeVisitsSql: string;
  foldPerBatch: number;
};

export const CLICK_COMMITTER_ARGS: ClickCommitterArgs = {
  addTotalSql: `INSERT INTO link_click_totals (link_id, clicks) VALUES (?, ?)
    ON CONFLICT (link_id) DO UPDATE SET clicks = clicks + excluded.clicks`,
  addDaySql: `INSERT INTO link_click_days (link_id, day, clicks) VALUES (?, ?, ?)
    ON CONFLICT (link_id, day) DO UPDATE SET clicks = clicks + excluded.clicks`,
  purgeSql: 'DELETE FROM link_click_days WHERE day < ?',
  keepDays: CLICK_DAYS_KEPT,
  ...SQLITE_VISIT_SQL,
  foldPerBatch: FOLD_PER_BATCH,
};

/**
 * One batch of clicks as one IMMEDIATE transaction of upserts (one fsync): each link's total and
 * its day, under the id of the link holding the code now; days past the kept ones are
 * purged by this same writer, once per new day. Its visits are packed here, link by link (`pack`,
 * off the event loop), and written as one row per link, and each link's day counts added to that
 * day's object in its UPDATE (`linklet_add_counts`, a function of this connection: no read of the
 * object first, no text of the counts to add made and parsed again), or inserted as a new day's.
 * It refers to nothing outside itself, because the writer thread runs its source text.
 */
export function createClickCommitter(
  db: Database.Database,
  args: ClickCommitterArgs,
  pack: typeof visitPackerOf,
): (batch: SqliteClickBatch) => null {
  const addTotal = db.prepare(args.addTotalSql);
  const addDay = db.prepare(args.addDaySql);
  const purge = db.prepare(args.purgeSql);
  const linkIdOf = db.prepare(args.linkIdSql).pluck();
  const addVisitRow = db.prepare(args.addVisitRowSql);
  // The objects this writer stored last, by their text: while a batch holds few enough links for
  // them to be met again (a thousand links: every one, every batch), the next batch adds to them
  // without parsing the stored text. A batch of more links keeps none: at a million links none
  // would be met again, and keeping them only made garbage. An entry goes once used, so a text
  // another process or a rolled-back batch replaced is parsed as stored.
  const written = new Map<string, Record<string, number>>();
  let remember = false;
  let adding: { names: string[]; counts: number[] } = { names: [], counts: [] };
  // Adds the day's counts being written (`adding`: names and visits) to the JSON object stored.
  // Names are `dimension:name` or `bots`: none is `__proto__`, which an assignment would not store.
  db.function('linklet_add_counts', (stored) => {
    let sums = written.get(stored as string);
    if (sums === undefined) sums = JSON.parse(stored as string) as Record<string, number>;
    else written.delete(stored as string);
    const { names, counts } = adding;
    for (let i = 0; i < names.length; i++)
      sums[names[i] as string] = (sums[names[i] as string] ?? 0) + (counts[i] as number);
    const text = JSON.stringify(sums);
    if (remember) written.set(text, sums);
    return text;
  });
  const addDayCounts = db.prepare(args.addDayCountsSql);
  const newDayCounts = db.prepare(args.newDayCountsSql);
  const oldestVisit = db.prepare(args.oldestVisitSql).pluck();
  const purgeVisits = db.prepare(args.purgeVisitsSql);
  let purgedBefore = Number.NEGATIVE_INFINITY;
  const nameJson = new Map<string, string>();
  // A batch's links are looked up in code order and written in id order: with a million links
  // clicked alike, a batch in click order visited each table's pages at random, and a page the
  // small page cache had let go was read again (a sweep reads each page once). The order is of
  // indexes, and each link's visits are packed just before they are written: a batch's tens of
  // thousands of row objects, made all at once, outlived V8's young generation, and copying and
  // then collecting them cost the writer 3.4–3.7 µs a click (0.7–0.8 now) and a million-link
  // server 30–60 MB of its peak RSS (docs/performance.md).
  const orderById = (ids: ReadonlyArray<number | undefined>): number[] => {
    const order: number[] = [];
    for (let i = 0; i < ids.length; i++) if (ids[i] !== undefined) order.push(i);
    return order.sort((a, b) => (ids[a] as number) - (ids[b] as number));
  };
  // One link's packed rows and days at a time, written and then emptied.
  const rows: PackedVisitRow[] = [];
  const days: DayCounts[] = [];
  const writeDayCounts = (linkId: number, item: DayCounts) => {
    const { day, names, counts } = item;
    adding = item;
    if (addDayCounts.run(linkId, day).changes === 1) return;
    let text = '{';
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      let json = nameJson.get(name);
      if (json === undefined) {
        json = JSON.stringify(name);
        if (nameJson.size >= 20_000) nameJson.clear();
        nameJson.set(name, json);
      }
      text += `${i === 0 ? '' : ','}${json}:${counts[i]}`;
    }
    newDayCounts.run(linkId, day, `${text}}`);
  };
  const transaction = db.transaction((batch: SqliteClickBatch) => {
    const ids = new Map<string, number | undefined>();
    for (const codeKey of [...batch.codeKeys].sort()) ids.set(codeKey, linkIdOf.get(codeKey) as number | undefined);
    // A code without a link was deleted since: its clicks end with it.
    const clickIds = batch.codeKeys.map((codeKey) => ids.get(codeKey));
    for (const i of orderById(clickIds)) {
      addTotal.run(clickIds[i], batch.counts[i]);
      addDay.run(clickIds[i], batch.day, batch.counts[i]);
    }
    if (batch.visits !== undefined) {
      // One row per link of the batch's visits, and each link's day counts added to its row.
      const packer = pack(batch.visits);
      const visitIds = packer.codeKeys.map((codeKey) => {
        if (!ids.has(codeKey)) ids.set(codeKey, linkIdOf.get(codeKey) as number | undefined);
        return ids.get(codeKey);
      });
      remember = packer.codeKeys.length <= 5_000;
      if (!remember || written.size > 5_000) written.clear();
      for (const link of orderById(visitIds)) {
        const linkId = visitIds[link] as number;
        // Emptied first: a batch that failed midway (and rolled back) may have left a link's.
        rows.length = 0;
        days.length = 0;
        packer.pack(link, rows, days);
        for (const row of rows) addVisitRow.run(linkId, row.firstAt, row.lastAt, row.count, row.visits);
        for (const item of days) writeDayCounts(linkId, item);
      }
    }
    // Visits past their retention go (their daily counts stay), oldest first (by row id: the
    // order they were written), at most a bounded number per batch.
    if (batch.foldBefore !== undefined) {
      const oldest = oldestVisit.get() as number | undefined;
      if (oldest !== undefined && oldest < batch.foldBefore)
        purgeVisits.run({ before: batch.foldBefore, limit: args.foldPerBatch });
    }
    const oldestKept = batch.day - args.keepDays;
    if (oldestKept > purgedBefore) {
      purge.run(oldestKept);
      purgedBefore = oldestKept;
    }
  });
  return (batch) => {
    transaction.immediate(batch);
    return null;
  };
}

/**
 * A link's clicks, read on the main connection (a rare management read): the days of the link
 * holding the code now, by its id, and only while it is the link created at `createdAt` (the one
 * the caller was shown), never a previous or later holder's.
 */
export function createSqliteClickReads(db: Database.Database) {
  const total = db.prepare<[string, number], number>(
    `SELECT t.clicks FROM links l JOIN link_click_totals t ON t.link_id = l.id
     WHERE l.code_key = ? AND l.created_at = ?`,
  );
  const days = db.prepare<[string, number, number], { day: number; clicks: number }>(
    `SELECT d.day, d.clicks FROM links l JOIN link_click_days d ON d.link_id = l.id
     WHERE l.code_key = ? AND l.created_at = ? AND d.day >= ? ORDER BY d.day`,
  );
  return async (codeKey: string, createdAt: number, fromDay: number): Promise<LinkClicks> => ({
    total: (total.pluck().get(codeKey, createdAt) as number | undefined) ?? 0,
    days: days.all(codeKey, createdAt, fromDay),
  });
}
