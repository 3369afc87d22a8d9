/** Set by the build (`wxt.config.ts`); absent under the unit tests, which run the sources. */
declare const __LINKLET_BUILD__: string | undefined;

/**
 * Which build this code came from: the hash of the sources it was built from (`wxt.config.ts`),
 * so builds of other sources differ and a rebuild of the same sources is the same. Chromium keeps
 * running the service worker an earlier build registered when an unpacked extension's folder gets
 * a new build, at a higher version too (the pages load from the folder, the background does not),
 * so a page tells the two apart by it.
 */
export const BUILD_ID: string = typeof __LINKLET_BUILD__ === 'string' ? __LINKLET_BUILD__ : 'sources';
