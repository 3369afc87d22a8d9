import { join } from 'node:path';
import { expect } from 'vitest';
import { releaseNode } from '../../scripts/release-build.mjs';
import type { RunningServer, StartOptions } from '../../scripts/server-process.mjs';
import { checkVisits, type ShownVisits, visitsBefore } from './link-visits.js';
import { type ListedLink, listWhen } from './list-links.js';
import { NO_FEATURES, type ReleaseFeatures } from './release-features.js';
import { checkCounting, checkListed, checkNewCreates, checkOpens } from './verify-update.js';
import { writeReleaseData } from './write-release-data.js';

/** A release updated from, and what it can do (the probe must find exactly that, or it tests less). */
export interface Release {
  commit: string;
  features: ReleaseFeatures;
}

const MANAGED = { ...NO_FEATURES, owners: true, links: true, clicks: true, disable: true, remove: true };
const EVERY = { ...MANAGED, visits: true, labels: true, passwords: true };

/**
 * Releases updated from: the one before owners, clicks and the web app; the one before visits;
 * the last one that stored a row per visit (the first with titles, tags and passwords); and the
 * last one before hand edits were logged, whose own writer stored visits packed and each link's
 * click total in a table of its own (SQLite schema 9, PostgreSQL schema 9); and 0.2.0, the first
 * release with a version (schema 11: hand edits logged, owners' indexes partial; better-sqlite3 13,
 * run on the Node running the tests); 0.3.0 (schema 13: rules, limits, webhooks); and 0.4.0
 * (schema 14: claim tokens).
 */
export const RELEASES: Release[] = [
  { commit: 'aaedf42', features: NO_FEATURES },
  { commit: '3289986', features: MANAGED },
  { commit: '7784d06', features: EVERY },
  { commit: '5711d13', features: EVERY },
  { commit: '5607bd0', features: EVERY },
  { commit: '6c2ba05', features: EVERY },
  { commit: '217a6b6', features: EVERY },
];
/** A cold build of one release is an `npm ci` and a compile: minutes on a small machine. */
export const BUILD_TIMEOUT_MS = 15 * 60_000;
export const UPDATE_TIMEOUT_MS = 3 * 60_000;

const ADMIN_KEY = 'update-test-administrator-key';
// The same base URL on both sides, so short URLs in listings compare as they were.
const BASE_URL = 'https://sho.rt';

interface UpdateRun {
  /** The release's commit, which says the Node it runs on (`releaseNode`). */
  commit: string;
  /** The built release's folder (`ensureRelease`), and what that release can do. */
  releaseDir: string;
  features: ReleaseFeatures;
  /** The store's settings, the same for the old and the new server. */
  env: Record<string, string>;
  start(env: Record<string, string>, options?: StartOptions): Promise<RunningServer>;
  /** Ends the expiry of a link in the store while no server runs. */
  expire(code: string): Promise<void> | void;
}

/**
 * An update as an operator does it: the old release writes, stops; today's server starts on
 * the same database and must list, open and count everything as before, and take new creates.
 */
export async function runUpdate({ commit, releaseDir, features, env, start, expire }: UpdateRun): Promise<void> {
  const settings = { ...env, API_KEY: ADMIN_KEY, BASE_URL };
  const old = await start(settings, {
    script: join(releaseDir, 'dist', 'server', 'main.js'),
    node: releaseNode(commit),
    log: 'discard',
  });
  const data = await writeReleaseData(old.origin, ADMIN_KEY);
  expect(data.features, 'what the old release was found to do').toEqual(features);
  let before: ListedLink[] | undefined;
  if (data.features.links) {
    const clicked = data.links.filter((link) => link.clicks > 0 && link.fate === 'active');
    before = await listWhen(old.origin, ADMIN_KEY, (links) =>
      clicked.every((made) => links.find((link) => link.code === made.code)?.clicks === made.clicks),
    );
  }
  let visits: Map<string, ShownVisits> | undefined;
  if (data.features.visits) visits = await visitsBefore(old.origin, ADMIN_KEY, data);
  expect(await old.stop()).toBe(0);
  for (const link of data.links.filter((made) => made.fate === 'expired')) await expire(link.code);

  const today = await start(settings);
  await checkListed(today.origin, ADMIN_KEY, data, before);
  await checkOpens(today.origin, data);
  if (visits !== undefined) await checkVisits(today.origin, ADMIN_KEY, visits);
  const active = data.links.filter((link) => link.fate === 'active');
  const counted = active.find((link) => link.clicks > 0) ?? active[0];
  if (counted !== undefined) await checkCounting(today.origin, ADMIN_KEY, counted);
  await checkNewCreates(today.origin, ADMIN_KEY, data);
  expect(await today.stop()).toBe(0);
}
