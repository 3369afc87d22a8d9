import { type Catalog, hasColumns, type Migration } from '../schema-version.js';

/**
 * Webhook endpoints and their delivery queue. A delivery is pending (due at `next_at`; a claim
 * moves it by its lease), delivered or failed; the last ones of each endpoint are kept to show.
 * Times are epoch ms; `owner_id` NULL is the administrator's endpoint.
 */
const WEBHOOKS = `
  CREATE TABLE webhooks (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id        INTEGER,
    url             TEXT    NOT NULL,
    events          TEXT    NOT NULL, -- event names separated by spaces
    secret          TEXT    NOT NULL, -- whsec_…, the signing key
    created_at      INTEGER NOT NULL,
    failing_since   INTEGER,
    disabled_at     INTEGER,
    disabled_reason TEXT
  ) STRICT;
  CREATE INDEX webhooks_by_owner ON webhooks (owner_id, id);
  CREATE TABLE webhook_deliveries (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    id              TEXT    NOT NULL UNIQUE, -- the webhook-id header, the same on every attempt
    webhook_id      INTEGER NOT NULL,
    type            TEXT    NOT NULL,
    body            TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    state           TEXT    NOT NULL DEFAULT 'pending', -- pending, delivered, failed
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_at         INTEGER,
    last_attempt_at INTEGER,
    last_status     INTEGER,
    last_error      TEXT
  ) STRICT;
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE state = 'pending';
  CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, seq);
`;

/** The migration adding webhooks (its number is its place in `SQLITE_MIGRATIONS`). */
export const SQLITE_WEBHOOKS_MIGRATION: Migration = {
  what: 'webhook endpoints and their delivery queue',
  sql: WEBHOOKS,
  madeIn: (c: Catalog) =>
    hasColumns(c, 'webhooks', 'id', 'url') && hasColumns(c, 'webhook_deliveries', 'id', 'next_at'),
};
