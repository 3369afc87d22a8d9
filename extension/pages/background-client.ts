import { browser } from 'wxt/browser';
import { type BackgroundApi, createBackgroundClient } from '../service/background-api.js';
import { restartForBuild } from './restart-for-build.js';

/**
 * A page's handle on the background, which owns the links, the history and the sync. Runtime
 * messages reach the background whether or not its service worker controls the page yet (a
 * fetch to the extension origin does not before the worker has activated: the first popup after
 * install), and on Firefox's background page alike. A background left from an earlier build (an
 * update in place) restarts the extension, once.
 */
export function backgroundApi(): BackgroundApi {
  return createBackgroundClient((call) => browser.runtime.sendMessage(call), { onOtherBuild: restartForBuild });
}
