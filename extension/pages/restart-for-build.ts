import { browser } from 'wxt/browser';
import { storage } from 'wxt/utils/storage';
import { BUILD_ID } from '../build-id.js';
import { extensionVersion } from '../extension-version.js';
import type { BuiltAs } from '../service/background-api.js';

/** The restarts this extension asked for the build it now is: how many, and the last one's time. */
interface BuildRestarts {
  build: string;
  count: number;
  at: number;
}

const restarts = storage.defineItem<BuildRestarts>('local:buildRestarts', {
  fallback: { build: '', count: 0, at: 0 },
});

/** The most restarts one build asks for: a background that stays old after them is not restarted again. */
export const MAX_RESTARTS_PER_BUILD = 3;
/** A restart under way (its page closing, Chromium loading the folder) is not asked for again. */
export const RESTART_SPACING_MS = 10_000;

/**
 * Restarts the extension when a page finds a background of another version: a service worker
 * left from before its folder was replaced in place. Chromium applies a store's update (a higher
 * version) to the background and the pages together, so after one the versions agree and nothing
 * restarts (a popup never closes itself on a person). Chromium does keep the service worker an
 * earlier build registered when an unpacked extension's folder gets a new build while the browser
 * is closed, at a higher version too, and keeps it across restarts; only reloading the extension
 * registers the one on disk. A background that names no version is of a release before 0.2.0 (all
 * 0.1.0), so of another version than any page that asks. Builds of the same version (a developer
 * rebuilding in place) are not restarted: the page carries on with the background it gets.
 *
 * A restart can be lost (the browser closing while Chromium carries it out, say), so a later page
 * asks again, but at most `MAX_RESTARTS_PER_BUILD` times a build and not within
 * `RESTART_SPACING_MS` of the last: a background that stays old is not restarted forever, nor
 * twice by pages opened together. Resolves false when it asks for none (then the page carries on
 * with what it gets).
 */
export async function restartForBuild(background: BuiltAs, now = Date.now()): Promise<boolean> {
  const mine = extensionVersion();
  if (background.version !== undefined && background.version === mine) return false;
  const asked = await restarts.getValue();
  const counted = asked.build === BUILD_ID ? asked : { build: BUILD_ID, count: 0, at: 0 };
  if (counted.count >= MAX_RESTARTS_PER_BUILD || Math.abs(now - counted.at) < RESTART_SPACING_MS) return false;
  await restarts.setValue({ build: BUILD_ID, count: counted.count + 1, at: now });
  await storage.removeItem('local:restartedForBuild'); // what builds before this one kept instead
  console.info(
    `Linklet: the background is of version ${background.version ?? 'before 0.2.0'}, not ${mine}; restarting the extension.`,
  );
  browser.runtime.reload();
  return true;
}
