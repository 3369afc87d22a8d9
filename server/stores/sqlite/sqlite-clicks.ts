import type Database from 'better-sqlite3';
import { FOLD_PER_BATCH } from '../../../core/management/visits/visits.js';
import { CLICK_DAYS_KEPT, type ClickBatch, type LinkClicks } from '../../../core/rules/clicks.js';
import { SQLITE_VISIT_SQL } from './sqlite-visits.js';

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
 * purged by this same writer, once per new day. It refers to nothing outside itself, because
 * the writer thread runs its source text.
 */
export function createClickCommitter(db: Database.Database, args: ClickCommitterArgs): (batch: ClickBatch) => null {
  const addTotal = db.prepare(args.addTotalSql).pluck();
  const addDay = db.prepare(args.addDaySql);
  const purge = db.prepare(args.purgeSql);
  const linkIdOf = db.prepare(args.linkIdSql).pluck();
  const addVisit = db.prepare(args.addVisitSql);
  const oldestVisit = db.prepare(args.oldestVisitSql).pluck();
  const addTally = db.prepare(args.addTallySql);
  const purgeVisits = db.prepare(args.purgeVisitsSql);
  let purgedBefore = Number.NEGATIVE_INFINITY;
  const transaction = db.transaction((batch: ClickBatch) => {
    const ids = new Map();
    for (let i = 0; i < batch.codeKeys.length; i++) {
      const linkId = addTotal.get(batch.counts[i], batch.codeKeys[i]);
      ids.set(batch.codeKeys[i], linkId);
      if (linkId !== undefined) addDay.run(linkId, batch.day, batch.counts[i]);
    }
    for (const visit of batch.visits || []) {
      let linkId = ids.get(visit.codeKey);
      if (!ids.has(visit.codeKey)) {
        linkId = linkIdOf.get(visit.codeKey);
        ids.set(visit.codeKey, linkId);
      }
      if (linkId === undefined) continue;
      addVisit.run(
        linkId,
        visit.at,
        visit.referrer,
        visit.country,
        visit.userAgent,
        visit.browser,
        visit.os,
        visit.device,
        visit.bot ? 1 : 0,
      );
    }
    // The visits' daily counts per dimension (what stats read), added under the same ids.
    const tallies = batch.tallies;
    if (tallies) {
      for (let i = 0; i < tallies.codeKeys.length; i++) {
        const codeKey = tallies.codeKeys[i];
        if (!ids.has(codeKey)) ids.set(codeKey, linkIdOf.get(codeKey));
        const linkId = ids.get(codeKey);
        if (linkId !== undefined)
          addTally.run(linkId, tallies.days[i], tallies.dimensions[i], tallies.names[i], tallies.counts[i]);
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
