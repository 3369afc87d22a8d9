import type Database from 'better-sqlite3';
import { FOLD_PER_BATCH, type VisitDimension } from '../../../core/management/visits/visits.js';
import { CLICK_DAYS_KEPT, type ClickBatch, type LinkClicks } from '../../../core/rules/clicks.js';
import { type EncodedVisits, encodeVisits, SQLITE_VISIT_SQL } from './sqlite-visits.js';

/** A click batch as the writer thread takes it: its visits encoded (see `EncodedVisits`). */
export type SqliteClickBatch = Omit<ClickBatch, 'visits'> & { visits?: EncodedVisits };

/** The writer thread's form of a batch: its visits' strings once each, their daily counts made there. */
export function sqliteClickBatch({ visits, ...rest }: ClickBatch): SqliteClickBatch {
  return visits === undefined || visits.length === 0 ? rest : { ...rest, visits: encodeVisits(visits) };
}

export type ClickCommitterArgs = {
  addTotalSql: string;
  addDaySql: string;
  purgeSql: string;
  keepDays: number;
  linkIdSql: string;
  addVisitSql: string;
  addTallySql: string;
  oldestVisitSql: string;
  purgeVisitsSql: string;
  tallyFields: Array<[VisitDimension, number]>;
  botsDimension: string;
  unknownName: string;
  foldPerBatch: number;
};

export const CLICK_COMMITTER_ARGS: ClickCommitterArgs = {
  addTotalSql: 'UPDATE links SET clicks = clicks + ? WHERE code_key = ? RETURNING id',
  addDaySql: `INSERT INTO link_click_days (link_id, day, clicks) VALUES (?, ?, ?)
    ON CONFLICT (link_id, day) DO UPDATE SET clicks = clicks + excluded.clicks`,
  purgeSql: 'DELETE FROM link_click_days WHERE day < ?',
  keepDays: CLICK_DAYS_KEPT,
  ...SQLITE_VISIT_SQL,
  foldPerBatch: FOLD_PER_BATCH,
};

/**
 * One batch of clicks as one IMMEDIATE transaction of upserts (one fsync): each link's total,
 * then its day under the id of the link holding the code now; days past the kept ones are
 * purged by this same writer, once per new day. Its visits are written and added up into their
 * daily counts per dimension here, on the writer thread, keyed by integers. It refers to nothing
 * outside itself, because the writer thread runs its source text.
 */
export function createClickCommitter(
  db: Database.Database,
  args: ClickCommitterArgs,
): (batch: SqliteClickBatch) => null {
  const addTotal = db.prepare(args.addTotalSql).pluck();
  const addDay = db.prepare(args.addDaySql);
  const purge = db.prepare(args.purgeSql);
  const linkIdOf = db.prepare(args.linkIdSql).pluck();
  const addVisit = db.prepare(args.addVisitSql);
  const oldestVisit = db.prepare(args.oldestVisitSql).pluck();
  const addTally = db.prepare(args.addTallySql);
  const purgeVisits = db.prepare(args.purgeVisitsSql);
  let purgedBefore = Number.NEGATIVE_INFINITY;
  const transaction = db.transaction((batch: SqliteClickBatch) => {
    const ids = new Map();
    for (let i = 0; i < batch.codeKeys.length; i++) {
      const linkId = addTotal.get(batch.counts[i], batch.codeKeys[i]);
      ids.set(batch.codeKeys[i], linkId);
      if (linkId !== undefined) addDay.run(linkId, batch.day, batch.counts[i]);
    }
    const visits = batch.visits;
    if (visits) {
      const { strings, fields, at } = visits;
      const fieldCount = fields.length / at.length;
      const slots = args.tallyFields.length + 1; // the dimensions, then bots
      const linkOf = new Map(); // code key's string index → link id (or undefined: gone)
      const counts = new Map(); // link id → day → (slot × strings + name index) → visits
      for (let n = 0; n < at.length; n++) {
        const o = n * fieldCount;
        const key = fields[o] as number;
        if (!linkOf.has(key)) {
          const codeKey = strings[key] as string;
          if (!ids.has(codeKey)) ids.set(codeKey, linkIdOf.get(codeKey));
          linkOf.set(key, ids.get(codeKey));
        }
        const linkId = linkOf.get(key);
        if (linkId === undefined) continue;
        const bot = fields[o + 7] as number;
        addVisit.run(
          linkId,
          at[n] as number,
          strings[fields[o + 1] as number],
          strings[fields[o + 2] as number],
          strings[fields[o + 3] as number],
          strings[fields[o + 4] as number],
          strings[fields[o + 5] as number],
          strings[fields[o + 6] as number],
          bot,
        );
        let days = counts.get(linkId);
        if (days === undefined) {
          days = new Map();
          counts.set(linkId, days);
        }
        const day = Math.floor((at[n] as number) / 86_400);
        let names = days.get(day);
        if (names === undefined) {
          names = new Map();
          days.set(day, names);
        }
        if (bot === 1) names.set((slots - 1) * strings.length, (names.get((slots - 1) * strings.length) || 0) + 1);
        else
          for (let d = 0; d < slots - 1; d++) {
            const name = d * strings.length + (fields[o + (args.tallyFields[d] as [string, number])[1]] as number);
            names.set(name, (names.get(name) || 0) + 1);
          }
      }
      // The visits' daily counts per dimension (what stats read), under the same ids.
      for (const [linkId, days] of counts)
        for (const [day, names] of days)
          for (const [slotName, clicks] of names) {
            const slot = Math.floor(slotName / strings.length);
            if (slot === slots - 1) addTally.run(linkId, day, args.botsDimension, '', clicks);
            else
              addTally.run(
                linkId,
                day,
                (args.tallyFields[slot] as [string, number])[0],
                strings[slotName % strings.length] ?? args.unknownName,
                clicks,
              );
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
  const total = db.prepare<[string, number], number>('SELECT clicks FROM links WHERE code_key = ? AND created_at = ?');
  const days = db.prepare<[string, number, number], { day: number; clicks: number }>(
    `SELECT d.day, d.clicks FROM links l JOIN link_click_days d ON d.link_id = l.id
     WHERE l.code_key = ? AND l.created_at = ? AND d.day >= ? ORDER BY d.day`,
  );
  return async (codeKey: string, createdAt: number, fromDay: number): Promise<LinkClicks> => ({
    total: (total.pluck().get(codeKey, createdAt) as number | undefined) ?? 0,
    days: days.all(codeKey, createdAt, fromDay),
  });
}
