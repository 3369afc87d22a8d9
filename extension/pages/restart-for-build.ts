import { browser } from 'wxt/browser';
import { storage } from 'wxt/utils/storage';
import { BUILD_ID } from '../build-id.js';

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
 * Restarts the extension when a page finds the background of another build. Chromium keeps the
 * service worker an earlier build registered when an unpacked extension's folder gets a new build
 * (the browser closed meanwhile, as a manual update does), and keeps it across restarts; only
 * reloading the extension registers the one on disk. A restart can be lost (the browser closing
 * while Chromium carries it out, say), so a later page asks again, but at most
 * `MAX_RESTARTS_PER_BUILD` times a build and not within `RESTART_SPACING_MS` of the last:
 * a background that stays old is not restarted forever, nor twice by pages opened together.
 * Resolves false when it asks for none (then the page carries on with what it gets).
 */
export async function restartForBuild(now = Date.now()): Promise<boolean> {
  const asked = await restarts.getValue();
  const mine = asked.build === BUILD_ID ? asked : { build: BUILD_ID, count: 0, at: 0 };
  if (mine.count >= MAX_RESTARTS_PER_BUILD || Math.abs(now - mine.at) < RESTART_SPACING_MS) return false;
  await restarts.setValue({ build: BUILD_ID, count: mine.count + 1, at: now });
  await storage.removeItem('local:restartedForBuild'); // what builds before this one kept instead
  console.info(`Linklet: the background is of another build than ${BUILD_ID}; restarting the extension.`);
  browser.runtime.reload();
  return true;
}
