import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { VisitRow } from '../../core/management/visits/visits.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';

// A link's daily visit counts are one JSON object per day, which each click batch adds to in its
// upsert. Several processes (WORKERS, or servers sharing a file) write the same objects: each
// must add to what the others wrote, whatever its own last write was.

const dir = mkdtempSync(join(tmpdir(), 'linklet-visit-counts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.UTC(2026, 10, 26, 12);
const AT = NOW / 1000;
const DAY = Math.floor(NOW / 86_400_000);

const visit = (at: number, browser: string, country: string | null, bot = false): VisitRow => ({
  codeKey: 'shared',
  at,
  referrer: 'direct',
  country,
  userAgent: `${browser}/1`,
  browser: bot ? null : browser,
  os: 'Linux',
  device: 'desktop',
  bot,
});

it('adds each batch to the day counts another process wrote in between, on the same file', async () => {
  const path = join(dir, 'shared.db');
  const first = createSqliteLinkStore(path);
  const second = createSqliteLinkStore(path);
  const link = { code: 'shared', codeKey: 'shared', originalUrl: 'https://example.com/', createdAt: NOW };
  expect((await first.create({ ...link, expiresAt: NOW + 86_400_000 }, NOW)).created).toBe(true);
  const batch = (visits: VisitRow[]) => ({
    day: DAY,
    codeKeys: ['shared'],
    counts: [visits.filter((one) => !one.bot).length],
    visits,
  });
  await first.addClicks(batch([visit(AT, 'Firefox', 'KR'), visit(AT + 1, 'Chrome', 'KR')]));
  await second.addClicks(batch([visit(AT + 2, 'Firefox', null), visit(AT + 3, 'Googlebot', null, true)]));
  // The first writes again: its own last object is no longer what is stored.
  await first.addClicks(batch([visit(AT + 4, 'Safari', 'US')]));
  await second.close();

  const { bots, tallies } = await first.visitTalliesOf('shared', NOW, DAY, DAY);
  await first.close();
  expect(bots).toBe(1);
  const byDimension = Object.fromEntries(
    tallies.map(({ dimension, name, clicks }) => [`${dimension}:${name}`, clicks] as const),
  );
  expect(byDimension).toEqual({
    'browser:Firefox': 2,
    'browser:Chrome': 1,
    'browser:Safari': 1,
    'country:KR': 2,
    'country:US': 1,
    'country:unknown': 1,
    'referrer:direct': 4,
    'os:Linux': 4,
    'device:desktop': 4,
  });
});
