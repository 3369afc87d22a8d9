import { type Catalog, hasColumns, hasPartialIndex, hasTrigger, type Migration } from '../schema-version.js';
import { SQLITE_WEBHOOKS_MIGRATION } from './sqlite-webhook-schema.js';

// Append-only: a released entry is never edited, because databases made by that release already
// ran it. A change to the schema is a new entry at the end (see docs/updates.md).

/** Schema 1 (the first release): links by canonical code. */
const LINKS = `CREATE TABLE links (
     code_key     TEXT    NOT NULL PRIMARY KEY, -- the unique index on the canonical code
     code         TEXT    NOT NULL,
     original_url TEXT    NOT NULL,
     created_at   INTEGER NOT NULL,             -- epoch ms
     expires_at   INTEGER NOT NULL              -- epoch ms
   ) STRICT, WITHOUT ROWID`;

/**
 * Schema 2: owners, their keys (SHA-256 only), link ownership and changes, tombstones of deleted
 * links, the change log other processes follow, and the cursor-signing secret.
 */
const OWNERS = `
  ALTER TABLE links ADD COLUMN owner_id INTEGER;
  ALTER TABLE links ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE links ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
  UPDATE links SET updated_at = created_at;
  CREATE INDEX links_by_owner ON links (owner_id, created_at, code_key);
  CREATE INDEX links_by_age ON links (created_at, code_key);
  CREATE INDEX links_by_change ON links (owner_id, updated_at, code_key);
  CREATE TABLE owners (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY,
    owner_id     INTEGER NOT NULL REFERENCES owners (id),
    key_hash     TEXT    NOT NULL UNIQUE, -- SHA-256 hex of the key; the key itself is never stored
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
  ) STRICT;
  CREATE TABLE link_tombstones (
    code_key   TEXT    NOT NULL,
    code       TEXT    NOT NULL,
    owner_id   INTEGER,
    deleted_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX link_tombstones_by_owner ON link_tombstones (owner_id, deleted_at, code_key);
  CREATE INDEX link_tombstones_by_time ON link_tombstones (deleted_at, code_key);
  -- Every patch and delete, for the other processes on this file to drop from their caches.
  CREATE TABLE link_changes (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    code_key   TEXT    NOT NULL,
    changed_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  INSERT INTO settings (name, value) VALUES ('cursor_secret', lower(hex(randomblob(32))));
`;

/** Schema 3: each link's total clicks, and its clicks per UTC day (then keyed by code and creation time). */
const CLICKS = `
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

/**
 * Schema 4: every link gets an id of its own, from a counter no import or retake can set, and its
 * daily clicks are kept under that id. Keyed by (code, created_at) they leaked: an import may
 * choose both, so a code retaken after it expired could read its previous holder's days. Days
 * that add up to more than their link's total cannot all be its own (a retake resets the total
 * but left the days), so they are dropped, as are days of no current link. Triggers drop a link's
 * days when its code is retaken (a new id) or it is deleted, and number a link inserted without
 * an id (a script's raw INSERT), so no two links ever share one.
 */
const LINK_IDS = `
  ALTER TABLE links ADD COLUMN id INTEGER NOT NULL DEFAULT 0;
  UPDATE links SET id = numbered.n
    FROM (SELECT code_key, row_number() OVER (ORDER BY created_at, code_key) AS n FROM links) AS numbered
    WHERE numbered.code_key = links.code_key;
  CREATE TABLE link_ids (last INTEGER NOT NULL) STRICT; -- the last id given; one row
  INSERT INTO link_ids (last) SELECT count(*) FROM links;

  ALTER TABLE link_click_days RENAME TO link_click_days_by_code;
  DROP INDEX link_click_days_by_day;
  CREATE TABLE link_click_days (
    link_id INTEGER NOT NULL, -- links.id
    day     INTEGER NOT NULL, -- UTC days since 1970-01-01
    clicks  INTEGER NOT NULL,
    PRIMARY KEY (link_id, day)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX link_click_days_by_day ON link_click_days (day);
  INSERT INTO link_click_days (link_id, day, clicks)
    SELECT l.id, d.day, d.clicks FROM link_click_days_by_code d
    JOIN links l ON l.code_key = d.code_key AND l.created_at = d.link_created_at
    WHERE (SELECT sum(o.clicks) FROM link_click_days_by_code o
           WHERE o.code_key = d.code_key AND o.link_created_at = d.link_created_at) <= l.clicks;
  DROP TABLE link_click_days_by_code;

  CREATE TRIGGER links_get_an_id AFTER INSERT ON links WHEN new.id = 0 BEGIN
    UPDATE link_ids SET last = last + 1;
    UPDATE links SET id = (SELECT last FROM link_ids) WHERE code_key = new.code_key;
  END;
  CREATE TRIGGER link_clicks_end_with_retake AFTER UPDATE OF id ON links WHEN old.id <> new.id BEGIN
    DELETE FROM link_click_days WHERE link_id = old.id;
  END;
  CREATE TRIGGER link_clicks_end_with_delete AFTER DELETE ON links BEGIN
    DELETE FROM link_click_days WHERE link_id = old.id;
  END;
`;

/**
 * Schema 5: visits (time, referrer host, country, User-Agent and what it names, bot or not; no
 * address, ever) under the link's id, and the daily counts per dimension that visits past their
 * retention are folded into. They end with their link, like its daily clicks.
 */
const VISITS = `
  CREATE TABLE link_visits (
    link_id    INTEGER NOT NULL, -- links.id
    at         INTEGER NOT NULL, -- epoch seconds
    referrer   TEXT,             -- the referrer's host, 'direct', or NULL when withheld (DNT/GPC)
    country    TEXT,             -- ISO 3166-1 alpha-2
    user_agent TEXT,             -- cut to 256 characters
    browser    TEXT,
    os         TEXT,
    device     TEXT,
    bot        INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX link_visits_by_link ON link_visits (link_id, at);
  CREATE TABLE link_visit_days (
    link_id   INTEGER NOT NULL, -- links.id
    day       INTEGER NOT NULL, -- UTC days since 1970-01-01
    dimension TEXT    NOT NULL, -- referrer, country, browser, os, device; bots for bot visits
    name      TEXT    NOT NULL,
    clicks    INTEGER NOT NULL,
    PRIMARY KEY (link_id, day, dimension, name)
  ) STRICT, WITHOUT ROWID;
  CREATE TRIGGER link_visits_end_with_retake AFTER UPDATE OF id ON links WHEN old.id <> new.id BEGIN
    DELETE FROM link_visits WHERE link_id = old.id;
    DELETE FROM link_visit_days WHERE link_id = old.id;
  END;
  CREATE TRIGGER link_visits_end_with_delete AFTER DELETE ON links BEGIN
    DELETE FROM link_visits WHERE link_id = old.id;
    DELETE FROM link_visit_days WHERE link_id = old.id;
  END;
`;

/** Schema 6: a link's password, as its salted slow hash (NULL: none); old links have none. */
const LINK_PASSWORDS = 'ALTER TABLE links ADD COLUMN password_hash TEXT';

/**
 * Schema 7: a link's title and tags. Tags are one text: the link's tag keys (lower
 * case, see `tagKey`) separated by spaces, which no tag contains; NULL for none, as for every
 * link made before.
 */
const LABELS = `
  ALTER TABLE links ADD COLUMN title TEXT;
  ALTER TABLE links ADD COLUMN tags TEXT;
`;

/**
 * Schema 8: visits stored as one row per link and batch (see server/clicks/packed-visits.ts), and
 * their daily counts as one row per link and day (a JSON object of `dimension:name` → visits): a
 * busy second wrote a row per visit and one per dimension and name, which cost redirects more
 * than the rest of a visit. Every visit and count of schema 5 is moved over: each visit as a row
 * of its own, each day's counts as one object.
 */
const PACKED_VISITS = `
  CREATE TABLE link_visit_rows (
    link_id     INTEGER NOT NULL, -- links.id
    first_at    INTEGER NOT NULL, -- epoch seconds of the row's oldest visit
    last_at     INTEGER NOT NULL, -- and of its newest
    visit_count INTEGER NOT NULL,
    visits      TEXT    NOT NULL  -- JSON: the visits (no address, ever)
  ) STRICT;
  CREATE INDEX link_visit_rows_by_link ON link_visit_rows (link_id, last_at);
  CREATE TABLE link_visit_counts (
    link_id INTEGER NOT NULL, -- links.id
    day     INTEGER NOT NULL, -- UTC days since 1970-01-01
    counts  TEXT    NOT NULL, -- JSON: 'dimension:name' (or 'bots') → visits
    PRIMARY KEY (link_id, day)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO link_visit_rows (link_id, first_at, last_at, visit_count, visits)
    SELECT link_id, at, at, 1, json_object(
        's', json_array(referrer, country, user_agent, browser, os, device),
        'v', json_array(at, 0, 1, 2, 3, 4, 5, bot))
    FROM link_visits ORDER BY rowid;
  INSERT INTO link_visit_counts (link_id, day, counts)
    SELECT link_id, day, json_group_object(CASE dimension WHEN 'bots' THEN 'bots' ELSE dimension || ':' || name END, clicks)
    FROM link_visit_days GROUP BY link_id, day;
  DROP TRIGGER link_visits_end_with_retake;
  DROP TRIGGER link_visits_end_with_delete;
  DROP TABLE link_visits;
  DROP TABLE link_visit_days;
  CREATE TRIGGER link_visits_end_with_retake AFTER UPDATE OF id ON links WHEN old.id <> new.id BEGIN
    DELETE FROM link_visit_rows WHERE link_id = old.id;
    DELETE FROM link_visit_counts WHERE link_id = old.id;
  END;
  CREATE TRIGGER link_visits_end_with_delete AFTER DELETE ON links BEGIN
    DELETE FROM link_visit_rows WHERE link_id = old.id;
    DELETE FROM link_visit_counts WHERE link_id = old.id;
  END;
`;

/**
 * Schema 9: each link's total clicks in a narrow table of its own, keyed by the link's id. In the
 * links table every count rewrote a page of whole links (URLs, titles): at a million links clicked
 * evenly, a second's counts dirtied most of its pages, and counting cost the writer about 16 µs a
 * click; here a page holds hundreds of totals (7.5 µs, id lookup included). A link without a row
 * has no clicks; schema 4's triggers, made again, end a link's total with its daily clicks.
 */
const CLICK_TOTALS = `
  CREATE TABLE link_click_totals (
    link_id INTEGER PRIMARY KEY, -- links.id
    clicks  INTEGER NOT NULL
  ) STRICT;
  INSERT INTO link_click_totals (link_id, clicks) SELECT id, clicks FROM links WHERE clicks > 0;
  ALTER TABLE links DROP COLUMN clicks;
  DROP TRIGGER link_clicks_end_with_retake;
  DROP TRIGGER link_clicks_end_with_delete;
  CREATE TRIGGER link_clicks_end_with_retake AFTER UPDATE OF id ON links WHEN old.id <> new.id BEGIN
    DELETE FROM link_click_totals WHERE link_id = old.id;
    DELETE FROM link_click_days WHERE link_id = old.id;
  END;
  CREATE TRIGGER link_clicks_end_with_delete AFTER DELETE ON links BEGIN
    DELETE FROM link_click_totals WHERE link_id = old.id;
    DELETE FROM link_click_days WHERE link_id = old.id;
  END;
`;

/**
 * Schema 10: every update and delete of a link's row, through Linklet or by hand (the sqlite3
 * shell, a script), is written to the change log in its own transaction, so every process drops
 * the link from its cache within a poll, not `CACHE_SECONDS` later. The time is SQLite's wall
 * clock in epoch ms (`julianday`, which every SQLite has), the log's only use for it being its
 * pruning. Inserts are not logged: unknown codes are never cached, and a create pays nothing.
 */
const CHANGE_TRIGGERS = `
  CREATE TRIGGER IF NOT EXISTS links_log_update AFTER UPDATE ON links BEGIN
    INSERT INTO link_changes (code_key, changed_at)
      VALUES (old.code_key, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
  END;
  CREATE TRIGGER IF NOT EXISTS links_log_delete AFTER DELETE ON links BEGIN
    INSERT INTO link_changes (code_key, changed_at)
      VALUES (old.code_key, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
  END;
`;

/**
 * Schema 11: the two indexes that find an owner's links hold only links that have an owner. Every
 * query through them names one (`owner_id = ?`, which implies `IS NOT NULL`, so SQLite still uses
 * them), and a link made without an owner's key (the administrator's, or none) was two index
 * entries no query read: two B-tree inserts and their pages in each commit (a create's claim
 * 44.2 → 40.3 µs of CPU, interleaved A/B; docs/performance.md). A server used by one person keeps them empty.
 */
const OWNED_LINK_INDEXES = `
  DROP INDEX IF EXISTS links_by_owner;
  DROP INDEX IF EXISTS links_by_change;
  CREATE INDEX links_by_owner ON links (owner_id, created_at, code_key) WHERE owner_id IS NOT NULL;
  CREATE INDEX links_by_change ON links (owner_id, updated_at, code_key) WHERE owner_id IS NOT NULL;
`;

/**
 * Schema 12: redirect rules (the ordered list as JSON text), a visit limit, a start and query
 * forwarding per link (SPEC "Link rules and limits"). NULL and 0 are the defaults, so every link
 * made before keeps redirecting as it did.
 */
const RULES_AND_LIMITS = `
  ALTER TABLE links ADD COLUMN redirect_rules TEXT;
  ALTER TABLE links ADD COLUMN max_visits INTEGER;
  ALTER TABLE links ADD COLUMN valid_since INTEGER;
  ALTER TABLE links ADD COLUMN forward_query INTEGER NOT NULL DEFAULT 0;
`;

/**
 * Schema 14: the SHA-256 of the claim token a create without a key answered (NULL: none, as for
 * every link made before), so its maker can make the link theirs once they sign in.
 */
const CLAIM_TOKENS = `
  ALTER TABLE links ADD COLUMN claim_token_hash TEXT;
`;

const OWNER_TABLES = ['owners', 'api_keys', 'link_tombstones', 'link_changes', 'settings'];

/** The SQLite store's one ordered list of migrations; `PRAGMA user_version` records how many ran. */
export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    what: 'links',
    sql: LINKS,
    madeIn: (c: Catalog) => hasColumns(c, 'links', 'code_key', 'code', 'original_url', 'created_at', 'expires_at'),
  },
  {
    what: 'owners, API keys, link changes and tombstones',
    sql: OWNERS,
    madeIn: (c) =>
      hasColumns(c, 'links', 'owner_id', 'updated_at', 'disabled') && OWNER_TABLES.every((table) => c.has(table)),
  },
  {
    what: 'click counts',
    sql: CLICKS,
    // Schema 9 moved the total out of links: a database with its table went through this step too.
    madeIn: (c) => (hasColumns(c, 'links', 'clicks') || c.has('link_click_totals')) && c.has('link_click_days'),
  },
  {
    what: "daily clicks kept under the link's own id",
    sql: LINK_IDS,
    madeIn: (c) => hasColumns(c, 'links', 'id') && hasColumns(c, 'link_click_days', 'link_id') && c.has('link_ids'),
  },
  {
    what: 'visits, and their daily counts per referrer, country, browser, OS and device',
    sql: VISITS,
    // Schema 8 replaced these tables: a database that has its tables went through this step too.
    madeIn: (c) => (c.has('link_visits') && c.has('link_visit_days')) || c.has('link_visit_rows'),
  },
  {
    what: 'link passwords (salted hashes)',
    sql: LINK_PASSWORDS,
    madeIn: (c) => hasColumns(c, 'links', 'password_hash'),
  },
  {
    what: 'link titles and tags',
    sql: LABELS,
    madeIn: (c) => hasColumns(c, 'links', 'title', 'tags'),
  },
  {
    what: 'visits as one row per link and batch, daily counts as one row per link and day',
    sql: PACKED_VISITS,
    madeIn: (c) => c.has('link_visit_rows') && c.has('link_visit_counts'),
  },
  {
    what: "each link's total clicks in a table of their own",
    sql: CLICK_TOTALS,
    madeIn: (c) => c.has('link_click_totals') && !hasColumns(c, 'links', 'clicks'),
  },
  {
    what: 'changes to links made by hand logged like those made through Linklet',
    sql: CHANGE_TRIGGERS,
    madeIn: (c) => hasTrigger(c, 'links_log_update') && hasTrigger(c, 'links_log_delete'),
  },
  {
    what: "the owners' indexes hold only links that have an owner",
    sql: OWNED_LINK_INDEXES,
    madeIn: (c) => hasPartialIndex(c, 'links_by_owner') && hasPartialIndex(c, 'links_by_change'),
  },
  {
    what: 'redirect rules, visit limits, start dates and query forwarding',
    sql: RULES_AND_LIMITS,
    madeIn: (c) => hasColumns(c, 'links', 'redirect_rules', 'max_visits', 'valid_since', 'forward_query'),
  },
  SQLITE_WEBHOOKS_MIGRATION,
  {
    what: 'claim tokens of links made without a key',
    sql: CLAIM_TOKENS,
    madeIn: (c) => hasColumns(c, 'links', 'claim_token_hash'),
  },
];
