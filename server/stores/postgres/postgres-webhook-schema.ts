import { type Catalog, hasColumns, type Migration } from '../schema-version.js';

/**
 * Webhook endpoints and their delivery queue (see the SQLite schema's note); times are epoch ms
 * as bigint, `owner_id` NULL is the administrator's endpoint.
 */
const webhooks = (p: string) => `
  CREATE TABLE ${p}webhooks (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id        bigint,
    url             text   NOT NULL,
    events          text   NOT NULL,
    secret          text   NOT NULL,
    created_at      bigint NOT NULL,
    failing_since   bigint,
    disabled_at     bigint,
    disabled_reason text
  );
  CREATE INDEX webhooks_by_owner ON ${p}webhooks (owner_id, id);
  CREATE TABLE ${p}webhook_deliveries (
    seq             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id              text   NOT NULL UNIQUE,
    webhook_id      bigint NOT NULL,
    type            text   NOT NULL,
    body            text   NOT NULL,
    created_at      bigint NOT NULL,
    state           text   NOT NULL DEFAULT 'pending',
    attempts        integer NOT NULL DEFAULT 0,
    next_at         bigint,
    last_attempt_at bigint,
    last_status     integer,
    last_error      text
  );
  CREATE INDEX webhook_deliveries_due ON ${p}webhook_deliveries (next_at) WHERE state = 'pending';
  CREATE INDEX webhook_deliveries_by_webhook ON ${p}webhook_deliveries (webhook_id, seq);
`;

/** The migration adding webhooks (its number is its place in `postgresMigrations`). */
export const postgresWebhooksMigration = (prefix: string): Migration => ({
  what: 'webhook endpoints and their delivery queue',
  sql: webhooks(prefix),
  madeIn: (c: Catalog) =>
    hasColumns(c, 'webhooks', 'id', 'url') && hasColumns(c, 'webhook_deliveries', 'id', 'next_at'),
});
