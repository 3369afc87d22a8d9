import type Database from 'better-sqlite3';
import { CLICK_DAYS_KEPT, type ClickBatch, type LinkClicks } from '../../../core/clicks.js';

/**
 * Schema version 3: each link's total clicks, and its clicks per UTC day. A day belongs to one
 * link, not just to its code (`link_created_at`): a code taken over after its link expired, or
 * freed by a delete, starts from nothing without any cleanup on the create path.
 */
export const CLICKS_MIGRATION = `
  ALTER TABLE links ADD COLUMN clicks INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE link_click_days (
    code_key        TEXT    NOT NULL,
    link_created_at INTEGER NOT NULL, -- epoch ms: which link of this code
    day             INTEGER NOT NULL, -- UTC days since 1970-01-01
    clicks          INTEGER NOT NULL,
    PRIMARY KEY (code_key, link_created_at, day)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX link_click_days_by_day ON link_click_days (day);
`;

export type ClickCommitterArgs = { addTotalSql: string; addDaySql: string; purgeSql: string; keepDays: number };

export const CLICK_COMMITTER_ARGS: ClickCommitterArgs = {
  addTotalSql: 'UPDATE links SET clicks = clicks + ? WHERE code_key = ? RETURNING created_at',
  addDaySql: `INSERT INTO link_click_days (code_key, link_created_at, day, clicks) VALUES (?, ?, ?, ?)
    ON CONFLICT (code_key, link_created_at, day) DO UPDATE SET clicks = clicks + excluded.clicks`,
  purgeSql: 'DELETE FROM link_click_days WHERE day < ?',
  keepDays: CLICK_DAYS_KEPT,
};

/**
 * One batch of clicks as one IMMEDIATE transaction of upserts (one fsync): each link's total,
 * then its day; days past the kept ones are purged by this same writer, once per new day. It
 * refers to nothing outside itself, because the writer thread runs its source text.
 */
export function createClickCommitter(db: Database.Database, args: ClickCommitterArgs): (batch: ClickBatch) => null {
  const addTotal = db.prepare(args.addTotalSql).pluck();
  const addDay = db.prepare(args.addDaySql);
  const purge = db.prepare(args.purgeSql);
  let purgedBefore = Number.NEGATIVE_INFINITY;
  const transaction = db.transaction((batch: ClickBatch) => {
    for (let i = 0; i < batch.codeKeys.length; i++) {
      const createdAt = addTotal.get(batch.counts[i], batch.codeKeys[i]);
      if (createdAt !== undefined) addDay.run(batch.codeKeys[i], createdAt, batch.day, batch.counts[i]);
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

/** A link's clicks, read on the main connection (a rare management read). */
export function createSqliteClickReads(db: Database.Database) {
  const total = db.prepare<[string, number], number>('SELECT clicks FROM links WHERE code_key = ? AND created_at = ?');
  const days = db.prepare<[string, number, number], { day: number; clicks: number }>(
    `SELECT day, clicks FROM link_click_days WHERE code_key = ? AND link_created_at = ? AND day >= ? ORDER BY day`,
  );
  return async (codeKey: string, createdAt: number, fromDay: number): Promise<LinkClicks> => ({
    total: (total.pluck().get(codeKey, createdAt) as number | undefined) ?? 0,
    days: days.all(codeKey, createdAt, fromDay),
  });
}
