import type pg from 'pg';
import { tagsToText } from '../../../core/management/links/link-labels.js';
import { rulesToText } from '../../../core/store/link-rule-fields.js';
import type { CreateLinkResult, Link } from '../../../core/store/link-store.js';
import { groupConcurrent } from '../group-concurrent.js';
import { isConnectionLost, isRaceLost, withReconnect } from './postgres-errors.js';
import { LINK_COLUMNS, type LinkRow, linkFromRow as toLink } from './postgres-link-row.js';
import { fromMs } from './postgres-sql.js';

// The most creates one multi-row claim takes; bounds one statement's parameters and locks.
const MAX_CLAIM_GROUP = 256;
// Claims under way at once; the rest of the pool serves reads. Fewer and larger groups commit
// more links per second (bench, 50 connections, creates/s: 1 → 18.7k, 2 → 17.2k, 5 → 13.1k,
// 10 → 14.7k); two, so that one slow statement (a lock wait on another instance's claim) does
// not hold up every create.
export const CLAIM_GROUPS_IN_FLIGHT = 2;

// Each holder read can race a replacement; a few rounds settle it unless something is badly wrong.
const MAX_CREATE_ATTEMPTS = 5;

interface ClaimItem {
  link: Link;
  now: number;
}

/**
 * The create claims on PostgreSQL: each one `INSERT ... ON CONFLICT` statement, so the database,
 * not the instances, decides who wins a code. Creates that arrive while others are under way
 * share one multi-row statement and one commit; one a group cannot settle (a holder that expires
 * between, a lost connection) is claimed on its own. `find` reads a code's holder.
 */
export function createPostgresClaims(
  pool: pg.Pool,
  links: string,
  find: (codeKey: string) => Promise<Link | undefined>,
): (link: Link, now: number) => Promise<CreateLinkResult> {
  const columns = LINK_COLUMNS;
  // One statement claims the code: insert it, or take it over from a holder that has expired
  // (its owner, changes and disabled flag go with it, and its clicks start again from 0). The
  // link gets a new id from the sequence either way (EXCLUDED holds the one drawn for the
  // insert), so a retaken code never shows its previous holder's daily clicks (a trigger drops
  // them). `updated_at` is the creation time unless the link says otherwise (an import keeps
  // its source's creation time but is a change made now).
  const upsert = `INSERT INTO ${links} AS l (code_key, code, original_url, created_at, expires_at, owner_id, updated_at, title, tags, password_hash,
      redirect_rules, max_visits, valid_since, forward_query, claim_token_hash)
    VALUES ($1, $2, $3, ${fromMs('$4')}, ${fromMs('$5')}, $7, ${fromMs('$8')}, $9, $10, $11, $12, $13, ${fromMs('$14')}, $15, $16)
    ON CONFLICT (code_key) DO UPDATE SET code = EXCLUDED.code, original_url = EXCLUDED.original_url,
      created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, owner_id = EXCLUDED.owner_id,
      updated_at = EXCLUDED.updated_at, disabled = false, clicks = 0, id = EXCLUDED.id,
      title = EXCLUDED.title, tags = EXCLUDED.tags, password_hash = EXCLUDED.password_hash,
      redirect_rules = EXCLUDED.redirect_rules, max_visits = EXCLUDED.max_visits,
      valid_since = EXCLUDED.valid_since, forward_query = EXCLUDED.forward_query,
      claim_token_hash = EXCLUDED.claim_token_hash
    WHERE l.expires_at <= ${fromMs('$6')}
    RETURNING ${columns}`;
  // The same claim for many links at once (one array per column).
  const upsertGroup = `INSERT INTO ${links} AS l (code_key, code, original_url, created_at, expires_at, owner_id, updated_at, title, tags, password_hash,
      redirect_rules, max_visits, valid_since, forward_query, claim_token_hash)
    SELECT k, c, u, ${fromMs('ca')}, ${fromMs('ea')}, o, ${fromMs('ua')}, ti, ta, p, r, mv, ${fromMs('vs')}, fq, h
      FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $7::bigint[], $8::bigint[],
        $9::text[], $10::text[], $11::text[], $12::text[], $13::bigint[], $14::bigint[], $15::boolean[], $16::text[])
        AS t (k, c, u, ca, ea, o, ua, ti, ta, p, r, mv, vs, fq, h)
    ON CONFLICT (code_key) DO UPDATE SET code = EXCLUDED.code, original_url = EXCLUDED.original_url,
      created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, owner_id = EXCLUDED.owner_id,
      updated_at = EXCLUDED.updated_at, disabled = false, clicks = 0, id = EXCLUDED.id,
      title = EXCLUDED.title, tags = EXCLUDED.tags, password_hash = EXCLUDED.password_hash,
      redirect_rules = EXCLUDED.redirect_rules, max_visits = EXCLUDED.max_visits,
      valid_since = EXCLUDED.valid_since, forward_query = EXCLUDED.forward_query,
      claim_token_hash = EXCLUDED.claim_token_hash
    WHERE l.expires_at <= ${fromMs('$6')}
    RETURNING ${columns}`;
  // The single-link path: every lone create, and every create a group could not settle.
  const claimOne = async (link: Link, now: number, uncertainAtFirst = false): Promise<CreateLinkResult> => {
    // Set once a connection failed under the upsert: it may have committed all the same.
    let uncertain = uncertainAtFirst;
    for (let attempt = 0; attempt < MAX_CREATE_ATTEMPTS; attempt++) {
      let row: LinkRow | undefined;
      try {
        // Autocommitted; with synchronous_commit on (see ensureDurableCommits) it is flushed
        // to disk before PostgreSQL answers.
        const inserted = await withReconnect(
          () =>
            pool.query<LinkRow>({
              name: 'linklet_claim',
              text: upsert,
              values: [
                link.codeKey,
                link.code,
                link.originalUrl,
                link.createdAt,
                link.expiresAt,
                now,
                link.ownerId ?? null,
                link.updatedAt ?? link.createdAt,
                link.title ?? null,
                tagsToText(link.tags),
                link.passwordHash ?? null,
                rulesToText(link.redirectRules),
                link.maxVisits ?? null,
                link.validSince ?? null,
                link.forwardQuery === true,
                link.claimTokenHash ?? null,
              ],
            }),
          () => {
            uncertain = true;
          },
        );
        row = inserted.rows[0];
      } catch (error) {
        // A concurrent claim of this code won (or a SERIALIZABLE default saw one coming):
        // look again, and the holder is reported as a conflict like any other.
        if (!isRaceLost(error)) throw error;
      }
      if (row) return { created: true, link: toLink(row) };
      // The holder was active when the upsert looked; read it separately, since RETURNING
      // says nothing about rows the WHERE clause left alone.
      const holder = await find(link.codeKey);
      // The holder is this very link: an earlier attempt committed before its connection
      // failed. It was created once, and is reported as created, not as taken.
      if (uncertain && holder && sameLink(holder, link)) return { created: true, link: holder };
      // Gone (deleted) or no longer active (replaced by an expired link) in between: try again.
      if (holder && now < holder.expiresAt) return { created: false, holderExpiresAt: holder.expiresAt };
    }
    throw new Error(`Creating code key ${JSON.stringify(link.codeKey)} kept racing other writers; giving up.`);
  };

  // Creates that arrive while others are under way share one statement and one commit.
  const claimGroup = async (items: ClaimItem[]): Promise<CreateLinkResult[]> => {
    if (items.length === 1) {
      const { link, now } = items[0] as ClaimItem;
      return [await claimOne(link, now)];
    }
    // ON CONFLICT DO UPDATE may touch a row once per statement: the first create of each code
    // key goes in; the others are settled after it. Sorted, so that groups of several instances
    // lock their keys in one order and cannot deadlock.
    const firsts = new Map<string, ClaimItem>();
    for (const item of items) if (!firsts.has(item.link.codeKey)) firsts.set(item.link.codeKey, item);
    const claimed = [...firsts.values()].sort((a, b) => (a.link.codeKey < b.link.codeKey ? -1 : 1));
    let rows: LinkRow[];
    try {
      const result = await pool.query<LinkRow>({
        name: 'linklet_claim_group',
        text: upsertGroup,
        values: [
          claimed.map(({ link }) => link.codeKey),
          claimed.map(({ link }) => link.code),
          claimed.map(({ link }) => link.originalUrl),
          claimed.map(({ link }) => link.createdAt),
          claimed.map(({ link }) => link.expiresAt),
          // The earliest `now` of the group: a holder expired by then is expired for each item.
          // One that expires later is left alone here and its item settled on its own below.
          Math.min(...claimed.map(({ now }) => now)),
          claimed.map(({ link }) => link.ownerId ?? null),
          claimed.map(({ link }) => link.updatedAt ?? link.createdAt),
          claimed.map(({ link }) => link.title ?? null),
          claimed.map(({ link }) => tagsToText(link.tags)),
          claimed.map(({ link }) => link.passwordHash ?? null),
          claimed.map(({ link }) => rulesToText(link.redirectRules)),
          claimed.map(({ link }) => link.maxVisits ?? null),
          claimed.map(({ link }) => link.validSince ?? null),
          claimed.map(({ link }) => link.forwardQuery === true),
          claimed.map(({ link }) => link.claimTokenHash ?? null),
        ],
      });
      rows = result.rows;
    } catch (error) {
      if (!isConnectionLost(error) && !isRaceLost(error)) throw error;
      // Each on its own; after a lost connection the group's statement may have committed.
      const uncertain = isConnectionLost(error);
      return Promise.all(
        items.map((item) => claimOne(item.link, item.now, uncertain && firsts.get(item.link.codeKey) === item)),
      );
    }
    const created = new Map(rows.map((row) => [row.code_key, row]));
    return Promise.all(
      items.map((item) => {
        const row = firsts.get(item.link.codeKey) === item ? created.get(item.link.codeKey) : undefined;
        return row ? { created: true as const, link: toLink(row) } : settleUnclaimed(item);
      }),
    );
  };
  // A create the group statement did not claim: most often its code is held (and this read is all
  // it costs); a holder expired by its own `now`, or gone since, is claimed on its own.
  const settleUnclaimed = async ({ link, now }: ClaimItem): Promise<CreateLinkResult> => {
    const holder = await find(link.codeKey);
    if (holder && now < holder.expiresAt) return { created: false, holderExpiresAt: holder.expiresAt };
    return claimOne(link, now);
  };
  const claim = groupConcurrent(claimGroup, {
    maxInFlight: CLAIM_GROUPS_IN_FLIGHT,
    maxGroupSize: MAX_CLAIM_GROUP,
  });
  return (link, now) => claim({ link, now });
}

const sameLink = (a: Link, b: Link) =>
  a.codeKey === b.codeKey &&
  a.code === b.code &&
  a.originalUrl === b.originalUrl &&
  a.createdAt === b.createdAt &&
  a.expiresAt === b.expiresAt;
