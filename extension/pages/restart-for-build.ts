import { browser } from 'wxt/browser';
import { storage } from 'wxt/utils/storage';
import { BUILD_ID } from '../build-id.js';

/** The build a restart was last asked for, so a background that stays another build is not restarted forever. */
const restartedFor = storage.defineItem<string>('local:restartedForBuild', { fallback: '' });

/**
 * Restarts the extension once per build when a page finds the background of another build.
 * Chromium keeps the service worker an earlier build registered when an unpacked extension's
 * folder gets a new build (the browser closed meanwhile, as a manual update does), and keeps it
 * across restarts; only reloading the extension registers the one on disk. Resolves false when
 * this build already asked once (then the page carries on with what it gets).
 */
export async function restartForBuild(): Promise<boolean> {
  if ((await restartedFor.getValue()) === BUILD_ID) return false;
  await restartedFor.setValue(BUILD_ID);
  console.info(`Linklet: the background is of another build than ${BUILD_ID}; restarting the extension.`);
  browser.runtime.reload();
  return true;
}
