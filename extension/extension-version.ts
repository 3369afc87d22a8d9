import { browser } from 'wxt/browser';

/**
 * The version in this code's manifest (package.json's, as built), or undefined where there is no
 * manifest to read (the unit tests' fake browser). A background and a page of the same extension
 * compare it: a store's update brings both at the new version, so only a background left over
 * from a folder replaced in place (an unpacked extension, Chromium keeping its earlier service
 * worker) answers with another version.
 */
export function extensionVersion(): string | undefined {
  try {
    return browser.runtime.getManifest().version;
  } catch {
    return undefined;
  }
}
