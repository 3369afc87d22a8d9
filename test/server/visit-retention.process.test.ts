import { describe, expect, it } from 'vitest';
import type { VisitRow } from '../../core/management/visits/visits.js';
import { dayOf, formatDay } from '../../core/rules/clicks.js';
import type { DatabaseConfig } from '../../server/process/config.js';
import { openLinkStore } from '../../server/stores/open-link-store.js';
import { usePostgresSchema } from './postgres-schema.js';
import { useServerProcesses } from './use-server-processes.js';

// Visits past VISITS_RETENTION_DAYS go on their own, with no click to carry them out: a server
// started on a database holding a 100-day-old visit folds it (it leaves the listing, its day's
// counts stay in the stats), also when it records no visits itself (VISITS=off).
const { freshDb, start } = useServerProcesses('visit-retention');
const postgres = usePostgresSchema('visit_retention');
const ADMIN = 'admin-key-for-visit-retention-tests';
const DAY_MS = 86_400_000;

const visit = (at: number, referrer: string): VisitRow => ({
  codeKey: 'kept',
  at: Math.floor(at / 1000),
  referrer,
  country: 'FR',
  userAgent: null,
  browser: 'Firefox',
  os: 'Linux',
  device: 'desktop',
  bot: false,
});

/** A database holding the link `kept` with one visit 100 days old and one from yesterday. */
async function seed(database: DatabaseConfig): Promise<{ oldDay: string }> {
  const store = await openLinkStore(database);
  const now = Date.now();
  const old = now - 100 * DAY_MS;
  const link = { code: 'kept', codeKey: 'kept', originalUrl: 'https://example.com/', createdAt: old - DAY_MS };
  expect((await store.create({ ...link, expiresAt: now + 7 * DAY_MS }, now)).created).toBe(true);
  await store.addClicks({ day: dayOf(old), codeKeys: ['kept'], counts: [1], visits: [visit(old, 'old.example')] });
  const recent = now - DAY_MS;
  await store.addClicks({
    day: dayOf(recent),
    codeKeys: ['kept'],
    counts: [1],
    visits: [visit(recent, 'recent.example')],
  });
  await store.close();
  return { oldDay: formatDay(dayOf(old)) };
}

const call = async (origin: string, path: string) => {
  const answer = await fetch(`${origin}${path}`, { headers: { 'X-API-Key': ADMIN } });
  expect(answer.status, path).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: answers are read as plain JSON.
  return ((await answer.json()) as any).data;
};
const referrersListed = async (origin: string): Promise<string[]> =>
  (await call(origin, '/api/v1/links/kept/visits')).visits.map((listed: { referrer: string }) => listed.referrer);

describe.each([
  ['SQLite', (): DatabaseConfig => ({ kind: 'sqlite', path: freshDb() })],
  ['PostgreSQL', (): DatabaseConfig => ({ kind: 'postgres', connectionString: postgres.url() })],
])('visit retention on %s, with no click', (name, database) => {
  it.each(['on', 'off'])(
    'VISITS=%s: the 100-day-old visit is folded soon after start',
    async (visits) => {
      if (name === 'PostgreSQL')
        await postgres.admin.query(
          `DROP SCHEMA IF EXISTS ${postgres.schema} CASCADE; CREATE SCHEMA ${postgres.schema}`,
        );
      const config = database();
      const { oldDay } = await seed(config);
      const server = await start({
        DATABASE_URL: config.kind === 'sqlite' ? `sqlite:${config.path}` : config.connectionString,
        API_KEY: ADMIN,
        VISITS: visits,
        VISITS_RETENTION_DAYS: '90',
      });
      let listed = await referrersListed(server.origin);
      for (let tries = 0; tries < 100 && listed.length > 1; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        listed = await referrersListed(server.origin);
      }
      expect(listed).toEqual(['recent.example']);
      // Folded, not lost: the old day's counts still name its referrer.
      const stats = await call(server.origin, `/api/v1/links/kept/stats?from=${oldDay}&to=${oldDay}`);
      expect(stats.referrers).toEqual([{ name: 'old.example', clicks: 1 }]);
    },
    60_000,
  );
});
