import type { LinkDetailView } from '../core/management/links/link-view.js';
import { ApiError, callApi, linkPath } from './api.js';

/** One row of a top list: a referrer host, a country code, a browser… and its clicks. */
export interface NamedCount {
  name: string;
  clicks: number;
}

/** `GET /api/v1/links/{code}/stats` (default: the last 30 UTC days), as SPEC "Visits" shapes it. */
export interface LinkStats {
  total: number;
  bots: number;
  days: Array<{ day: string; clicks: number }>;
  referrers: NamedCount[];
  countries: NamedCount[];
  browsers: NamedCount[];
  os: NamedCount[];
  devices: NamedCount[];
}

/** What the details can show: the full stats, the daily clicks of an older server, or nothing counted. */
export type StatsView =
  | { kind: 'stats'; stats: LinkStats }
  | { kind: 'days'; days: Array<{ day: string; clicks: number }> }
  | { kind: 'none' };

/**
 * A link's stats for its details. A server from before visits were recorded has no `/stats`
 * (404 from the unknown path, or 405): the link's own `clicks_by_day` is shown instead, and a
 * server that does not count clicks at all gives `none`. Any other failure is the caller's.
 */
export async function loadStatsView(code: string, key: string): Promise<StatsView> {
  try {
    const { data } = await callApi<LinkStats>(`${linkPath(code)}/stats`, { key });
    return { kind: 'stats', stats: data };
  } catch (failure) {
    if (!(failure instanceof ApiError && (failure.status === 404 || failure.status === 405))) throw failure;
  }
  // Also how a deleted link shows: this answers 404 too, and the caller says so.
  const { data } = await callApi<LinkDetailView>(linkPath(code), { key });
  return data.clicks_by_day === undefined ? { kind: 'none' } : { kind: 'days', days: data.clicks_by_day };
}
