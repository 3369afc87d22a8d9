import { expect } from 'vitest';
import { call } from './http-calls.js';

/** A link as `GET /api/v1/links` lists it (the fields every release with that endpoint has). */
export interface ListedLink {
  code: string;
  short_url: string;
  original_url: string;
  created_at: string;
  expiration_date: string;
  status: string;
  clicks: number;
  /** Fields of releases with link options (titles, tags, passwords). */
  title?: string | null;
  tags?: string[];
  password_protected?: boolean;
}

/** Every link the key sees, following `next_cursor` to the last page. */
export async function listAll(origin: string, key: string): Promise<ListedLink[]> {
  const all: ListedLink[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = await call(origin, 'GET', `/api/v1/links?limit=100${query}`, { key });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    all.push(...page.body.data.links);
    cursor = page.body.data.next_cursor;
  } while (cursor !== null);
  return all;
}

/** The fields compared before and after an update; fields a newer release adds are not. */
export function comparable(link: ListedLink): ListedLink {
  const { code, short_url, original_url, created_at, expiration_date, status, clicks } = link;
  return { code, short_url, original_url, created_at, expiration_date, status, clicks };
}

/**
 * The listing once `ready` holds for it, asked again for up to 5 s: clicks reach the listing in
 * the next batch write (about a second), so a listing taken at once could miss the last clicks.
 */
export async function listWhen(
  origin: string,
  key: string,
  ready: (links: ListedLink[]) => boolean,
): Promise<ListedLink[]> {
  let links = await listAll(origin, key);
  for (let tries = 0; tries < 50 && !ready(links); tries++) {
    await new Promise((done) => setTimeout(done, 100));
    links = await listAll(origin, key);
  }
  return links;
}
