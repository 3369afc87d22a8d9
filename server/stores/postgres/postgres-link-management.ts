import type pg from 'pg';
import { tagsToText } from '../../../core/management/links/link-labels.js';
import {
  type ChangeListQuery,
  changesOf,
  type LinkCountQuery,
  type LinkListQuery,
  type LinkOrder,
  type LinkOrderField,
  type OwnerScope,
  TOMBSTONE_RETENTION_MS,
} from '../../../core/store/link-management-store.js';
import { rulesToText } from '../../../core/store/link-rule-fields.js';
import type { LinkRecordManagement } from '../link-management-parts.js';
import { withReconnect } from './postgres-errors.js';
import { type LinkRow, linkFromRow, MANAGED_LINK_COLUMNS } from './postgres-link-row.js';
import { fromMs, toMs } from './postgres-sql.js';

/**
 * A column in ASCII lower case, as `searchKey` folds the term and SQLite's `lower()` folds text:
 * PostgreSQL's `lower()` folds every letter its locale knows, so a term with `É` or `Ä` in it
 * (which `searchKey` leaves as typed) would never match the very title it was copied from.
 */
const asciiLower = (column: string) =>
  `translate(${column}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

/** The WHERE conditions of a list or count, their parameters pushed onto `values`. */
function filtersOf({ scope, search, status, tag, now }: LinkCountQuery, values: unknown[]): string[] {
  const where: string[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  if ('ownerId' in scope) where.push(`owner_id = ${param(scope.ownerId)}`);
  if (search !== undefined) {
    const text = param(search);
    where.push(
      `(strpos(${asciiLower('code')}, ${text}) > 0 OR strpos(${asciiLower('original_url')}, ${text}) > 0 OR strpos(${asciiLower('title')}, ${text}) > 0)`,
    );
  }
  // Tags are space-separated keys: ' a b ' holds ' a ' exactly when the link carries tag a.
  if (tag !== undefined) where.push(`strpos(' ' || tags || ' ', ${param(` ${tag} `)}) > 0`);
  if (status === 'active') where.push(`expires_at > ${fromMs(param(now))} AND NOT disabled`);
  if (status === 'disabled') where.push(`expires_at > ${fromMs(param(now))} AND disabled`);
  if (status === 'expired') where.push(`expires_at <= ${fromMs(param(now))}`);
  return where;
}

const whereSql = (where: string[]) => (where.length > 0 ? `WHERE ${where.join(' AND ')}` : '');

// Text in code point order (the "C" collation), as SQLite and the memory store order it, whatever
// the database's locale; no title sorts as "".
const ORDER_COLUMNS = {
  created: 'l.created_at',
  code: 'l.code_key COLLATE "C"',
  url: 'l.original_url COLLATE "C"',
  title: `coalesce(l.title, '') COLLATE "C"`,
  clicks: 'l.clicks',
} as const satisfies Record<LinkOrderField, string>;

/** ORDER BY for a list in another order than newest first; ties by code key, the same way. */
function orderSql(order: LinkOrder): string {
  const direction = order.descending ? 'DESC' : 'ASC';
  return `${ORDER_COLUMNS[order.field]} ${direction}, l.code_key COLLATE "C" ${direction}`;
}

/**
 * The management operations on PostgreSQL's links (owners' keys are `createPostgresOwnerKeys`').
 * Every patch and delete is one statement; the table's trigger (schema 10) sends `NOTIFY` with
 * the code key (delivered at commit), as it does for edits made by hand, so every instance's
 * change feed drops the link from its cache. Reads are retried on a fresh connection as
 * redirects are; writes are not (a lost answer to a delete could otherwise come back as "not
 * found").
 */
export function createPostgresLinkManagement(pool: pg.Pool, prefix: string): LinkRecordManagement {
  const t = (table: string) => `${prefix}${table}`;
  const read = <R extends pg.QueryResultRow>(text: string, values: unknown[]) =>
    withReconnect(() => pool.query<R>(text, values));
  const ownerParam = (scope: OwnerScope) => ('ownerId' in scope ? scope.ownerId : null);
  // A link's bot visits over all its days (NULL for none), from the daily counts kept under its
  // own id: a deleted or retaken code's counts are under an id no current link has.
  const botsOfLink = `(SELECT sum((c.counts ->> 'bots')::bigint) AS bots FROM ${t('link_visit_counts')} AS c
    WHERE c.link_id = l.id)`;

  return {
    async listLinks({ limit, after, order, offset, ...filters }: LinkListQuery) {
      const values: unknown[] = [limit, offset ?? 0];
      const where = filtersOf(filters, values);
      const param = (value: unknown) => `$${values.push(value)}`;
      if (after) where.push(`(created_at, code_key) < (${fromMs(param(after.createdAt))}, ${param(after.codeKey)})`);
      const { rows } = await read<LinkRow>(
        // Ordered by the table's columns, named as such: a bare `created_at` is the selected
        // milliseconds of the same name, which no index holds (every one of an owner's links was
        // read and sorted: 0.9 s for a first page of 100k).
        `SELECT ${MANAGED_LINK_COLUMNS} FROM ${t('links')} AS l ${whereSql(where)}
         ORDER BY ${order === undefined ? 'l.created_at DESC, l.code_key DESC' : orderSql(order)} LIMIT $1 OFFSET $2`,
        values,
      );
      return rows.map(linkFromRow);
    },
    async countLinks(filters: LinkCountQuery) {
      const values: unknown[] = [];
      const where = filtersOf(filters, values);
      const { rows } = await read<{ links: string; clicks: string }>(
        `SELECT count(*) AS links, coalesce(sum(clicks), 0) AS clicks FROM ${t('links')} AS l ${whereSql(where)}`,
        values,
      );
      return { links: Number(rows[0]?.links ?? 0), clicks: Number(rows[0]?.clicks ?? 0) };
    },
    async countBots(filters: LinkCountQuery) {
      const values: unknown[] = [];
      const where = filtersOf(filters, values);
      const { rows } = await read<{ bots: string }>(
        `SELECT coalesce(sum(b.bots), 0) AS bots
         FROM ${t('links')} AS l LEFT JOIN LATERAL ${botsOfLink} AS b ON true ${whereSql(where)}`,
        values,
      );
      return Number(rows[0]?.bots ?? 0);
    },
    async listChanges({ scope, limit, since, after }: ChangeListQuery) {
      const owner = ownerParam(scope);
      const values = [limit, after?.updatedAt ?? since, after?.codeKey ?? '', owner];
      const ownerCondition = owner === null ? '$4::bigint IS NULL' : 'owner_id = $4';
      const [links, tombstones] = await Promise.all([
        read<LinkRow>(
          `SELECT ${MANAGED_LINK_COLUMNS} FROM ${t('links')} AS l
           WHERE ${ownerCondition} AND (updated_at, code_key) > (${fromMs('$2')}, $3::text)
           ORDER BY l.updated_at, l.code_key LIMIT $1`,
          values,
        ),
        read<{ code_key: string; code: string; owner_id: string | null; deleted_at: string }>(
          `SELECT code_key, code, owner_id, ${toMs('deleted_at')} AS deleted_at FROM ${t('link_tombstones')} AS d
           WHERE ${ownerCondition} AND (deleted_at, code_key) > (${fromMs('$2')}, $3::text)
           ORDER BY d.deleted_at, d.code_key LIMIT $1`,
          values,
        ),
      ]);
      return changesOf(
        links.rows.map(linkFromRow),
        tombstones.rows.map((row) => {
          const tombstone = { code: row.code, codeKey: row.code_key, deletedAt: Number(row.deleted_at) };
          return row.owner_id === null ? tombstone : { ...tombstone, ownerId: Number(row.owner_id) };
        }),
        limit,
      );
    },
    async updateLink(codeKey, scope, patch, now) {
      const owner = ownerParam(scope);
      const { rows } = await pool.query<LinkRow>(
        // The row's trigger (schema 10) sends the other instances' NOTIFY, delivered at commit.
        `UPDATE ${t('links')} SET original_url = coalesce($3, original_url), disabled = coalesce($4, disabled),
           title = CASE WHEN $6::boolean THEN $7::text ELSE title END,
           tags = CASE WHEN $8::boolean THEN $9::text ELSE tags END,
           expires_at = coalesce(${fromMs('$10')}, expires_at),
           password_hash = CASE WHEN $11::boolean THEN $12::text ELSE password_hash END,
           redirect_rules = CASE WHEN $13::boolean THEN $14::text ELSE redirect_rules END,
           max_visits = CASE WHEN $15::boolean THEN $16::bigint ELSE max_visits END,
           valid_since = CASE WHEN $17::boolean THEN ${fromMs('$18')} ELSE valid_since END,
           forward_query = coalesce($19::boolean, forward_query),
           updated_at = greatest(${fromMs('$5')}, updated_at + interval '1 millisecond')
         WHERE code_key = $1 AND ($2::bigint IS NULL OR owner_id = $2)
           AND (expires_at > ${fromMs('$5')} OR $10::bigint IS NOT NULL)
         RETURNING ${MANAGED_LINK_COLUMNS}`,
        [
          codeKey,
          owner,
          patch.originalUrl ?? null,
          patch.disabled ?? null,
          now,
          patch.title !== undefined,
          patch.title ?? null,
          patch.tags !== undefined,
          tagsToText(patch.tags),
          patch.expiresAt ?? null,
          patch.passwordHash !== undefined,
          patch.passwordHash ?? null,
          patch.redirectRules !== undefined,
          rulesToText(patch.redirectRules),
          patch.maxVisits !== undefined,
          patch.maxVisits ?? null,
          patch.validSince !== undefined,
          patch.validSince ?? null,
          patch.forwardQuery ?? null,
        ],
      );
      if (rows[0]) return { updated: true, link: linkFromRow(rows[0]) };
      const held = await read(
        `SELECT 1 FROM ${t('links')} WHERE code_key = $1 AND ($2::bigint IS NULL OR owner_id = $2)`,
        [codeKey, owner],
      );
      return { updated: false, reason: held.rowCount ? 'expired' : 'not_found' };
    },
    async deleteLink(codeKey, scope, now) {
      const { rows } = await pool.query(
        `WITH gone AS (
           DELETE FROM ${t('links')} WHERE code_key = $1 AND ($2::bigint IS NULL OR owner_id = $2)
           RETURNING code_key, code, owner_id),
         kept AS (
           INSERT INTO ${t('link_tombstones')} (code_key, code, owner_id, deleted_at)
           SELECT code_key, code, owner_id, ${fromMs('$3')} FROM gone RETURNING code_key),
         pruned AS (DELETE FROM ${t('link_tombstones')} WHERE deleted_at < ${fromMs('$4')})
         SELECT code_key FROM kept`,
        [codeKey, ownerParam(scope), now, now - TOMBSTONE_RETENTION_MS],
      );
      return rows.length === 1;
    },
    async listTags(scope) {
      const owner = ownerParam(scope);
      // Each link's bot visits added up once, however many tags it carries.
      const { rows } = await read<{ tag: string; links: string; clicks: string; bots: string }>(
        `SELECT tag, count(*) AS links, sum(clicks) AS clicks, coalesce(sum(bots), 0) AS bots
         FROM (SELECT l.tags, l.clicks, b.bots FROM ${t('links')} AS l LEFT JOIN LATERAL ${botsOfLink} AS b ON true
               WHERE l.tags IS NOT NULL AND ($1::bigint IS NULL OR l.owner_id = $1)) AS tagged,
           unnest(string_to_array(tags, ' ')) AS tag
         GROUP BY tag`,
        [owner],
      );
      return rows.map((row) => ({
        tag: row.tag,
        links: Number(row.links),
        clicks: Number(row.clicks),
        bots: Number(row.bots),
      }));
    },
    async signingSecret() {
      const { rows } = await read<{ value: string }>(
        `SELECT value FROM ${t('linklet_settings')} WHERE name = 'cursor_secret'`,
        [],
      );
      return (rows[0] as { value: string }).value;
    },
  };
}
