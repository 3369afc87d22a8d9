import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type StoredVisit,
  tallyName,
  tallyVisits,
  VISIT_DIMENSIONS,
  type VisitRow,
  type VisitTallies,
} from '../../core/management/visits/visits.js';
import { createPostgresLinkStore } from '../../server/stores/postgres/postgres-link-store.js';
import { postgresMigrations } from '../../server/stores/postgres/postgres-migrations.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `linklet_test_${randomUUID().replaceAll('-', '')}`;
const q = pg.escapeIdentifier(schema);
/** The schema before visits were packed: the last step writing a row per visit and per dimension and name. */
const UNPACKED = 8;

const C = Date.UTC(2026, 0, 10, 9);
const FAR = Date.UTC(2030, 0, 1);
const START = Math.floor(C / 1000);
const dayOf = (at: number) => Math.floor(at / 86_400);

const admin = new pg.Client({ connectionString: DATABASE_URL });
afterAll(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS ${q} CASCADE`);
  await admin.end();
});

/** Visits of three days, some of one second, some withheld (nulls), some bots. */
function oldVisits(codeKey: string, count: number): VisitRow[] {
  return Array.from({ length: count }, (_, i) => ({
    codeKey,
    at: START + Math.floor(i / 3) * 4000, // three to a second
    referrer: i % 7 === 0 ? null : i % 2 ? 'direct' : `site${i % 5}.example`,
    country: i % 4 === 0 ? null : (['KR', 'DE', 'BR'][i % 3] ?? null),
    userAgent: i % 7 === 0 ? null : `Agent/${i % 3}`,
    browser: i % 7 === 0 ? null : (['Chrome', 'Firefox', 'Safari'][i % 3] ?? null),
    os: i % 7 === 0 ? null : 'Linux',
    device: i % 7 === 0 ? null : i % 2 ? 'mobile' : 'desktop',
    bot: i % 11 === 5,
  }));
}

/** Visits as schema 6 wrote them: one row each, and their counts per day, dimension and name. */
async function writeTheOldWay(linkId: number, visits: VisitRow[], folded: VisitRow[]) {
  for (const v of visits)
    await admin.query(
      `INSERT INTO ${q}.link_visits (link_id, at, referrer, country, user_agent, browser, os, device, bot)
       VALUES ($1, to_timestamp($2), $3, $4, $5, $6, $7, $8, $9)`,
      [linkId, v.at, v.referrer, v.country, v.userAgent, v.browser, v.os, v.device, v.bot],
    );
  const days = new Map<string, number>();
  for (const v of [...visits, ...folded]) {
    const names = v.bot ? [['bots', '']] : VISIT_DIMENSIONS.map((dimension) => [dimension, tallyName(v, dimension)]);
    for (const [dimension, name] of names) {
      const key = JSON.stringify([dayOf(v.at), dimension, name]);
      days.set(key, (days.get(key) ?? 0) + 1);
    }
  }
  for (const [key, clicks] of days) {
    const [day, dimension, name] = JSON.parse(key) as [number, string, string];
    await admin.query(
      `INSERT INTO ${q}.link_visit_days (link_id, day, dimension, name, clicks)
       VALUES ($1, date '1970-01-01' + $2::int, $3, $4, $5)`,
      [linkId, day, dimension, name, clicks],
    );
  }
}

const sorted = (tallies: VisitTallies) => ({
  bots: tallies.bots,
  tallies: [...tallies.tallies].sort((a, b) => `${a.dimension} ${a.name}`.localeCompare(`${b.dimension} ${b.name}`)),
});
const shown = ({ at, referrer, country, userAgent, browser, os, device, bot }: VisitRow) => ({
  at: at * 1000,
  referrer,
  country,
  userAgent,
  browser,
  os,
  device,
  bot,
});
const withoutId = ({ id: _, ...rest }: StoredVisit) => rest;

describe('postgres: visits of a database before they were packed', () => {
  it('are all listed (newest first, fields equal) and tallied the same after the migration', async () => {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${q}`);
    await admin.query(
      `CREATE TABLE ${q}.linklet_schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    for (const [index, migration] of postgresMigrations(`${q}.`).slice(0, UNPACKED).entries()) {
      await admin.query(migration.sql);
      await admin.query(`INSERT INTO ${q}.linklet_schema_version (version) VALUES ($1)`, [index + 1]);
    }
    const links = await admin.query<{ id: string; code_key: string }>(
      `INSERT INTO ${q}.links (code_key, code, original_url, created_at, expires_at, updated_at)
       VALUES ('old', 'old', 'https://example.com/', to_timestamp(${C / 1000}), to_timestamp(${FAR / 1000}),
         to_timestamp(${C / 1000})),
       ('other', 'other', 'https://example.com/', to_timestamp(${C / 1000}), to_timestamp(${FAR / 1000}),
         to_timestamp(${C / 1000}))
       RETURNING id, code_key`,
    );
    const idOf = (code: string) => Number(links.rows.find((row) => row.code_key === code)?.id);
    const visits = oldVisits('old', 150);
    // Visits past their retention were removed, their counts kept in the days.
    const folded = oldVisits('old', 40).map((v) => ({ ...v, at: v.at - 5 * 86_400 }));
    await writeTheOldWay(idOf('old'), visits, folded);
    await writeTheOldWay(idOf('other'), oldVisits('other', 10), []);

    const store = await createPostgresLinkStore({ connectionString: DATABASE_URL, schema, poolSize: 2 });
    try {
      // Newest first; those of one second as their old ids had them, the last written first.
      const newestFirst = visits
        .map((visit, index) => ({ visit, index }))
        .sort((a, b) => b.visit.at - a.visit.at || b.index - a.index)
        .map(({ visit }) => shown(visit));
      expect((await store.listVisits('old', C, 1000)).map(withoutId)).toEqual(newestFirst);
      const walked: StoredVisit[] = [];
      for (let page = await store.listVisits('old', C, 7); page.length > 0; ) {
        walked.push(...page);
        const last = page.at(-1) as StoredVisit;
        page = await store.listVisits('old', C, 7, { at: last.at, id: last.id });
      }
      expect(walked.map(withoutId)).toEqual(newestFirst);

      const [first, last] = [dayOf(folded[0]?.at ?? 0), dayOf(visits.at(-1)?.at ?? 0)];
      expect(sorted(await store.visitTalliesOf('old', C, first, last))).toEqual(
        sorted(tallyVisits([...visits, ...folded])),
      );
      const today = dayOf(START);
      expect(sorted(await store.visitTalliesOf('old', C, today, today))).toEqual(
        sorted(tallyVisits(visits.filter((v) => dayOf(v.at) === today))),
      );
      expect(await store.listVisits('other', C, 100)).toHaveLength(10);
      // Visits still end with their link.
      expect(await store.deleteLink('old', { all: true }, C + 1000)).toBe(true);
      const left = await admin.query(
        `SELECT (SELECT count(*) FROM ${q}.link_visit_rows WHERE link_id = $1)::int AS rows,
           (SELECT count(*) FROM ${q}.link_visit_counts WHERE link_id = $1)::int AS days`,
        [idOf('old')],
      );
      expect(left.rows[0]).toEqual({ rows: 0, days: 0 });
    } finally {
      await store.close();
    }
  });
});
