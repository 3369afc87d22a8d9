import type Database from 'better-sqlite3';
import { tagsFromText, tagsToText } from '../../../core/management/links/link-labels.js';
import { type LinkManagementStore, type OwnerScope, retagged } from '../../../core/store/link-management-store.js';
import { CHANGE_LOG_KEEP_MS, PRUNE_CHANGE_LOG_SQL } from './sqlite-change-feed.js';

const ownerParam = (scope: OwnerScope) => ('ownerId' in scope ? scope.ownerId : null);
const ownerCondition = (scope: OwnerScope) => ('ownerId' in scope ? 'owner_id = @ownerId' : '1');

/**
 * The edits of many rows at once on a Linklet SQLite database: a tag renamed or deleted on every
 * link of a scope, a link's visits deleted. Each is one IMMEDIATE transaction on the main
 * connection, so the click writer's batches (its own IMMEDIATE transactions) land wholly before
 * or wholly after it; the links' triggers log each changed row for the other processes' caches.
 */
export function createSqliteBulkEdits(
  db: Database.Database,
): Pick<LinkManagementStore, 'renameTag' | 'deleteTag' | 'deleteVisits'> {
  const tagged = (scope: OwnerScope) =>
    db.prepare<{ ownerId: number | null; tag: string }, { code_key: string; tags: string }>(
      `SELECT code_key, tags FROM links WHERE instr(' ' || tags || ' ', @tag) > 0 AND ${ownerCondition(scope)}`,
    );
  const setTags = db.prepare(
    'UPDATE links SET tags = @tags, updated_at = max(@now, updated_at + 1) WHERE code_key = @codeKey',
  );
  const pruneChangeLog = db.prepare(PRUNE_CHANGE_LOG_SQL);

  const retag = db.transaction((scope: OwnerScope, from: string, to: string | undefined, now: number) => {
    let changed = 0;
    for (const row of tagged(scope).all({ ownerId: ownerParam(scope), tag: ` ${from} ` })) {
      const tags = retagged(tagsFromText(row.tags), from, to);
      if (tags === undefined) continue;
      setTags.run({ tags: tagsToText(tags), now, codeKey: row.code_key });
      changed += 1;
    }
    if (changed > 0) pruneChangeLog.run(CHANGE_LOG_KEEP_MS);
    return changed;
  });

  const linkOf = (scope: OwnerScope) =>
    db.prepare<{ ownerId: number | null; codeKey: string }, { id: number }>(
      `SELECT id FROM links WHERE code_key = @codeKey AND ${ownerCondition(scope)}`,
    );
  const countsOf = db.prepare<[number, number], { clicks: number | null; bots: number | null }>(
    `SELECT (SELECT clicks FROM link_click_totals WHERE link_id = ?) AS clicks,
       (SELECT sum(json_extract(counts, '$.bots')) FROM link_visit_counts WHERE link_id = ?) AS bots`,
  );
  const wipes = [
    'DELETE FROM link_click_totals WHERE link_id = ?',
    'DELETE FROM link_click_days WHERE link_id = ?',
    'DELETE FROM link_visit_rows WHERE link_id = ?',
    'DELETE FROM link_visit_counts WHERE link_id = ?',
  ].map((sql) => db.prepare<[number]>(sql));
  const touch = db.prepare('UPDATE links SET updated_at = max(?, updated_at + 1) WHERE id = ?');

  const deleteVisits = db.transaction((codeKey: string, scope: OwnerScope, now: number) => {
    const link = linkOf(scope).get({ ownerId: ownerParam(scope), codeKey });
    if (link === undefined) return undefined;
    const counts = countsOf.get(link.id, link.id);
    for (const wipe of wipes) wipe.run(link.id);
    touch.run(now, link.id);
    pruneChangeLog.run(CHANGE_LOG_KEEP_MS);
    return (counts?.clicks ?? 0) + (counts?.bots ?? 0);
  });

  return {
    async renameTag(scope, from, to, now) {
      return retag.immediate(scope, from, to, now);
    },
    async deleteTag(scope, tag, now) {
      return retag.immediate(scope, tag, undefined, now);
    },
    async deleteVisits(codeKey, scope, now) {
      return deleteVisits.immediate(codeKey, scope, now);
    },
  };
}
