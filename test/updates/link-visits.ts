import { expect } from 'vitest';
import { call } from './http-calls.js';
import type { ReleaseData } from './write-release-data.js';

/** What a server shows of one link's visits: every visit (all pages, newest first) and its stats. */
export interface ShownVisits {
  visits: unknown[];
  stats: unknown;
}

/** Every page of a link's visits (two at a time, so the cursor is walked too) and its stats. */
async function shownVisits(origin: string, key: string, code: string): Promise<ShownVisits> {
  const path = `/api/v1/links/${encodeURIComponent(code)}`;
  const visits: unknown[] = [];
  let cursor: string | undefined;
  do {
    const query = cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = await call(origin, 'GET', `${path}/visits?limit=2${query}`, { key });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    visits.push(...page.body.data.visits);
    cursor = page.body.data.next_cursor ?? undefined;
  } while (cursor !== undefined);
  const stats = await call(origin, 'GET', `${path}/stats`, { key });
  expect(stats.status).toBe(200);
  return { visits, stats: stats.body.data };
}

/**
 * The visits of every clicked link as the old release shows them, once each link shows all its
 * clicks as visits (they are written within about a second). Call it once the listing shows every
 * click (`listWhen`): clicks and their visits are written together.
 */
export async function visitsBefore(origin: string, key: string, data: ReleaseData) {
  const shown = new Map<string, ShownVisits>();
  for (const link of data.links.filter((made) => made.clicks > 0 && made.fate === 'active')) {
    let seen = await shownVisits(origin, key, link.code);
    // Releases before 2026-11-27 counted a click a password opened but kept no visit of it: what
    // such a release showed (its clicks already listed, written with their visits) is kept as is.
    const expected = link.password === undefined ? link.clicks : 0;
    for (let tries = 0; tries < 50 && seen.visits.length < expected; tries++) {
      await new Promise((done) => setTimeout(done, 100));
      seen = await shownVisits(origin, key, link.code);
    }
    if (link.password === undefined)
      expect(seen.visits, `visits of ${link.code} before the update`).toHaveLength(link.clicks);
    shown.set(link.code, seen);
  }
  return shown;
}

/** After the update, each link shows exactly the visits and stats it showed before. */
export async function checkVisits(origin: string, key: string, before: Map<string, ShownVisits>) {
  for (const [code, seen] of before)
    expect(await shownVisits(origin, key, code), `visits and stats of ${code} after the update`).toEqual(seen);
}
