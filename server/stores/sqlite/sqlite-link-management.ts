import type Database from 'better-sqlite3';
import { tagsToText } from '../../../core/management/links/link-labels.js';
import {
  type ChangeListQuery,
  changesOf,
  type LinkCount,
  type LinkCountQuery,
  type LinkListQuery,
  type LinkOrder,
  type LinkOrderField,
  type LinkPatch,
  type OwnerScope,
  type TagCount,
  TOMBSTONE_RETENTION_MS,
} from '../../../core/store/link-management-store.js';
import { rulesToText } from '../../../core/store/link-rule-fields.js';
import type { LinkRecordManagement } from '../link-management-parts.js';
import { CHANGE_LOG_KEEP_MS, PRUNE_CHANGE_LOG_SQL } from './sqlite-change-feed.js';
import { CLICKS_OF_LINK, type LinkRow, linkFromRow, MANAGED_LINK_COLUMNS } from './sqlite-link-row.js';

const STATUS_SQL = {
  active: 'expires_at > @now AND disabled = 0',
  disabled: 'expires_at > @now AND disabled = 1',
  expired: 'expires_at <= @now',
} as const;
/** The WHERE conditions of a list or count (their parameters: `filterParams`). */
function filtersOf({ scope, search, status, tag }: LinkCountQuery): string[] {
  const where = [ownerCondition(scope)];
  if (search !== undefined)
    where.push(
      '(instr(lower(code), @search) > 0 OR instr(lower(original_url), @search) > 0 OR instr(lower(title), @search) > 0)',
    );
  // Tags are space-separated keys: ' a b ' holds ' a ' exactly when the link carries tag a.
  if (tag !== undefined) where.push("instr(' ' || tags || ' ', @tag) > 0");
  if (status !== undefined) where.push(STATUS_SQL[status]);
  return where;
}

const filterParams = ({ scope, search, tag, now }: LinkCountQuery) => ({
  ownerId: ownerParam(scope),
  search: search ?? null,
  tag: tag === undefined ? null : ` ${tag} `,
  now,
});

// Text compares as UTF-8 bytes (SQLite's BINARY), which is code point order; no title sorts as "".
const ORDER_COLUMNS = {
  created: 'created_at',
  code: 'code_key',
  url: 'original_url',
  title: "coalesce(title, '')",
  clicks: `coalesce(${CLICKS_OF_LINK}, 0)`,
} as const satisfies Record<LinkOrderField, string>;

/** ORDER BY for a list in another order than newest first; ties by code key, the same way. */
function orderSql(order: LinkOrder): string {
  const direction = order.descending ? 'DESC' : 'ASC';
  return `${ORDER_COLUMNS[order.field]} ${direction}, code_key ${direction}`;
}

/** The title, tags, expiry, rules and limits of a patch as the UPDATE's parameters (`set…` tells "keep" from "clear"). */
const labelParams = (patch: LinkPatch) => ({
  setTitle: Number(patch.title !== undefined),
  title: patch.title ?? null,
  setTags: Number(patch.tags !== undefined),
  tags: tagsToText(patch.tags),
  expiresAt: patch.expiresAt ?? null,
  setRules: Number(patch.redirectRules !== undefined),
  rules: rulesToText(patch.redirectRules),
  setMaxVisits: Number(patch.maxVisits !== undefined),
  maxVisits: patch.maxVisits ?? null,
  setValidSince: Number(patch.validSince !== undefined),
  validSince: patch.validSince ?? null,
  forwardQuery: patch.forwardQuery === undefined ? null : Number(patch.forwardQuery),
});
/**
 * A link's bot visits over all its days (NULL for none), from the daily counts kept under its
 * own id: a deleted or retaken code's counts are under an id no current link has.
 */
const BOTS_OF_LINK = `(SELECT sum(json_extract(c.counts, '$.bots')) FROM link_visit_counts AS c WHERE c.link_id = links.id)`;
const ownerParam = (scope: OwnerScope) => ('ownerId' in scope ? scope.ownerId : null);
const ownerCondition = (scope: OwnerScope) => ('ownerId' in scope ? 'owner_id = @ownerId' : '1');

/**
 * The management operations on a Linklet SQLite database's links (its owners' keys are
 * `createSqliteOwnerKeys`'). They run on the main connection (they
 * are rare next to redirects and creates), each write one IMMEDIATE transaction that also logs
 * the change for other processes (see `createSqliteChangeFeed`).
 */
export function createSqliteLinkManagement(db: Database.Database): LinkRecordManagement {
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  // The change itself is logged by the table's triggers (schema 10), on SQLite's clock.
  const pruneChangeLog = () => prepared(PRUNE_CHANGE_LOG_SQL).run(CHANGE_LOG_KEEP_MS);

  const updateLink = db.transaction((codeKey: string, scope: OwnerScope, patch: LinkPatch, now: number) => {
    // An expired link takes a patch only with a renewal (a new `expires_at`).
    const row = prepared(
      `UPDATE links SET original_url = coalesce(@url, original_url), disabled = coalesce(@disabled, disabled),
           title = CASE WHEN @setTitle THEN @title ELSE title END,
           tags = CASE WHEN @setTags THEN @tags ELSE tags END,
           redirect_rules = CASE WHEN @setRules THEN @rules ELSE redirect_rules END,
           max_visits = CASE WHEN @setMaxVisits THEN @maxVisits ELSE max_visits END,
           valid_since = CASE WHEN @setValidSince THEN @validSince ELSE valid_since END,
           forward_query = coalesce(@forwardQuery, forward_query),
           expires_at = coalesce(@expiresAt, expires_at),
           password_hash = CASE WHEN @setPassword THEN @passwordHash ELSE password_hash END,
           updated_at = max(@now, updated_at + 1)
         WHERE code_key = @codeKey AND (expires_at > @now OR @expiresAt IS NOT NULL) AND ${ownerCondition(scope)}
         RETURNING ${MANAGED_LINK_COLUMNS}`,
    )
      .raw()
      .get({
        codeKey,
        now,
        ownerId: ownerParam(scope),
        url: patch.originalUrl ?? null,
        disabled: patch.disabled === undefined ? null : Number(patch.disabled),
        setPassword: Number(patch.passwordHash !== undefined),
        passwordHash: patch.passwordHash ?? null,
        ...labelParams(patch),
      }) as LinkRow | undefined;
    if (row) {
      pruneChangeLog();
      return { updated: true as const, link: linkFromRow(codeKey, row) };
    }
    const held = prepared(`SELECT 1 FROM links WHERE code_key = @codeKey AND ${ownerCondition(scope)}`).get({
      codeKey,
      ownerId: ownerParam(scope),
    });
    return { updated: false as const, reason: held ? ('expired' as const) : ('not_found' as const) };
  });

  const deleteLink = db.transaction((codeKey: string, scope: OwnerScope, now: number): boolean => {
    const gone = prepared(
      `DELETE FROM links WHERE code_key = @codeKey AND ${ownerCondition(scope)} RETURNING code, owner_id`,
    ).get({ codeKey, ownerId: ownerParam(scope) }) as { code: string; owner_id: number | null } | undefined;
    if (!gone) return false;
    prepared('INSERT INTO link_tombstones (code_key, code, owner_id, deleted_at) VALUES (?, ?, ?, ?)').run(
      codeKey,
      gone.code,
      gone.owner_id,
      now,
    );
    prepared('DELETE FROM link_tombstones WHERE deleted_at < ?').run(now - TOMBSTONE_RETENTION_MS);
    pruneChangeLog();
    return true;
  });

  return {
    async listLinks({ limit, after, order, offset, ...filters }: LinkListQuery) {
      const where = filtersOf(filters);
      if (after) where.push('(created_at, code_key) < (@afterAt, @afterKey)');
      const rows = prepared(
        `SELECT code_key, ${MANAGED_LINK_COLUMNS} FROM links WHERE ${where.join(' AND ')}
         ORDER BY ${order === undefined ? 'created_at DESC, code_key DESC' : orderSql(order)} LIMIT @limit OFFSET @offset`,
      )
        .raw()
        .all({
          ...filterParams(filters),
          afterAt: after?.createdAt ?? null,
          afterKey: after?.codeKey ?? null,
          limit,
          offset: offset ?? 0,
        }) as Array<[string, ...LinkRow]>;
      return rows.map(([codeKey, ...row]) => linkFromRow(codeKey, row));
    },
    async countLinks(filters: LinkCountQuery) {
      const sql = `SELECT count(*) AS links, coalesce(sum(${CLICKS_OF_LINK}), 0) AS clicks FROM links WHERE ${filtersOf(filters).join(' AND ')}`;
      return prepared(sql).get(filterParams(filters)) as LinkCount;
    },
    async countBots(filters: LinkCountQuery) {
      const sql = `SELECT coalesce(sum(${BOTS_OF_LINK}), 0) FROM links WHERE ${filtersOf(filters).join(' AND ')}`;
      return prepared(sql).pluck().get(filterParams(filters)) as number;
    },
    async listChanges({ scope, limit, since, after }: ChangeListQuery) {
      const params = {
        ownerId: ownerParam(scope),
        fromAt: after?.updatedAt ?? since,
        fromKey: after?.codeKey ?? '',
        limit,
      };
      const linkRows = prepared(
        `SELECT code_key, ${MANAGED_LINK_COLUMNS} FROM links
         WHERE ${ownerCondition(scope)} AND (updated_at, code_key) > (@fromAt, @fromKey)
         ORDER BY updated_at, code_key LIMIT @limit`,
      )
        .raw()
        .all(params) as Array<[string, ...LinkRow]>;
      const tombstoneRows = prepared(
        `SELECT code_key, code, owner_id, deleted_at FROM link_tombstones
         WHERE ${ownerCondition(scope)} AND (deleted_at, code_key) > (@fromAt, @fromKey)
         ORDER BY deleted_at, code_key LIMIT @limit`,
      ).all(params) as Array<{ code_key: string; code: string; owner_id: number | null; deleted_at: number }>;
      return changesOf(
        linkRows.map(([codeKey, ...row]) => linkFromRow(codeKey, row)),
        tombstoneRows.map((row) => {
          const tombstone = { code: row.code, codeKey: row.code_key, deletedAt: row.deleted_at };
          return row.owner_id === null ? tombstone : { ...tombstone, ownerId: row.owner_id };
        }),
        limit,
      );
    },
    async updateLink(codeKey, scope, patch, now) {
      return updateLink.immediate(codeKey, scope, patch, now);
    },
    async deleteLink(codeKey, scope, now) {
      return deleteLink.immediate(codeKey, scope, now);
    },
    async listTags(scope) {
      // Each link's tags as a JSON array (a tag holds no quote or backslash), one row per tag.
      // Each link's bot visits added up once, however many tags it carries.
      return prepared(
        `SELECT tag.value AS tag, count(*) AS links, coalesce(sum(clicks), 0) AS clicks, coalesce(sum(bots), 0) AS bots
         FROM (SELECT tags, ${CLICKS_OF_LINK} AS clicks, ${BOTS_OF_LINK} AS bots FROM links
               WHERE tags IS NOT NULL AND ${ownerCondition(scope)}) AS tagged,
           json_each('["' || replace(tags, ' ', '","') || '"]') AS tag
         GROUP BY tag.value`,
      ).all({ ownerId: ownerParam(scope) }) as TagCount[];
    },
    async signingSecret() {
      return prepared("SELECT value FROM settings WHERE name = 'cursor_secret'").pluck().get() as string;
    },
  };
}
