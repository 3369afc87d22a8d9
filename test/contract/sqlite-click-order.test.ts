import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import type { VisitRow } from '../../core/management/visits/visits.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';

// The SQLite writer looks a batch's links up in code order and writes them in link-id order (for
// the pages' locality at a million links), by a list of positions in the batch: each link must
// still get its own clicks and visits, whatever order the batch names the links in and whatever
// their ids (rowids go to 2^63; a script or an old release may have given large ones).

const dir = mkdtempSync(join(tmpdir(), 'linklet-click-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.UTC(2026, 10, 28, 12);
const DAY = Math.floor(NOW / 86_400_000);
const LINKS = 60;
const codeAt = (i: number) => `order${String(i).padStart(3, '0')}`;

const visitOf = (codeKey: string, browser: string): VisitRow => ({
  codeKey,
  at: NOW / 1000,
  referrer: 'direct',
  country: 'KR',
  userAgent: `${browser}/1`,
  browser,
  os: 'Linux',
  device: 'desktop',
  bot: false,
});

async function clicksLandOnTheirLinks(file: string, idsFrom: (link: number) => number): Promise<void> {
  const path = join(dir, file);
  let store = createSqliteLinkStore(path);
  for (let i = 0; i < LINKS; i++) {
    const code = codeAt(i);
    const link = { code, codeKey: code, originalUrl: `https://example.com/${i}`, createdAt: NOW };
    expect((await store.create({ ...link, expiresAt: NOW + 86_400_000 }, NOW)).created).toBe(true);
  }
  await store.close();
  // Ids that do not follow the codes (as generated codes' do not), from another connection.
  const db = new Database(path);
  const renumber = db.prepare('UPDATE links SET id = ? WHERE code_key = ?');
  db.transaction(() => {
    for (let i = 0; i < LINKS; i++) renumber.run(-1 - i, codeAt(i)); // out of the way first
    for (let i = 0; i < LINKS; i++) renumber.run(idsFrom(i), codeAt(i));
  })();
  db.close();

  store = createSqliteLinkStore(path);
  // Named in neither code nor id order, with a code whose link is gone; link i clicked i + 1 times.
  const named = [...Array(LINKS).keys()].sort((a, b) => ((a * 37) % LINKS) - ((b * 37) % LINKS));
  const codeKeys = [...named.map(codeAt), 'gone'];
  const counts = [...named.map((i) => i + 1), 5];
  const visits = named.flatMap((i) => (i % 3 === 0 ? [visitOf(codeAt(i), i % 2 === 0 ? 'Firefox' : 'Chrome')] : []));
  await store.addClicks({ day: DAY, codeKeys, counts, visits: [...visits, visitOf('gone', 'Safari')] });

  for (let i = 0; i < LINKS; i++) {
    const clicks = await store.clicksOf(codeAt(i), NOW, DAY);
    expect(clicks, codeAt(i)).toEqual({ total: i + 1, days: [{ day: DAY, clicks: i + 1 }] });
    const { tallies } = await store.visitTalliesOf(codeAt(i), NOW, DAY, DAY);
    const browsers = tallies.filter(({ dimension }) => dimension === 'browser').map(({ name }) => name);
    expect(browsers, codeAt(i)).toEqual(i % 3 === 0 ? [i % 2 === 0 ? 'Firefox' : 'Chrome'] : []);
  }
  await store.close();
}

it('gives each link its clicks and visits when the ids follow neither the codes nor the batch', async () => {
  await clicksLandOnTheirLinks('small-ids.db', (i) => 1 + ((i * 7919) % LINKS) * 1000);
});

it('gives each link its clicks and visits when some ids are 2^32 or more', async () => {
  await clicksLandOnTheirLinks('large-ids.db', (i) => (i === 17 ? 2 ** 32 + 5 : i === 3 ? 2 ** 40 : 10 + i * 3));
});
