import { storage } from 'wxt/utils/storage';
import { DEFAULT_EXPIRE_DURATION, type ExpireDuration } from '../core/expiry.js';

export interface Settings {
  /** The companion server's base URL without a trailing slash; '' means local mode. */
  serverUrl: string;
  /**
   * An owner's API key for that server ('' for none). With one, links sync both ways; it lives in
   * `storage.local` with the rest, never in `storage.sync`, so it does not leave this browser.
   */
  apiKey: string;
  defaultExpire: ExpireDuration;
  /** Copy the short URL as soon as the popup, menu or shortcut makes it. */
  autoCopy: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  serverUrl: '',
  apiKey: '',
  defaultExpire: DEFAULT_EXPIRE_DURATION,
  autoCopy: true,
};

/** Kept in `storage.local`: small, read by every page and the background, changes are broadcast. */
export const settingsItem = storage.defineItem<Settings>('local:settings', { fallback: DEFAULT_SETTINGS });

export async function loadSettings(): Promise<Settings> {
  return { ...DEFAULT_SETTINGS, ...(await settingsItem.getValue()) };
}

/**
 * Turns what the user typed into a server base URL: trimmed, no trailing slash, http or https.
 * Throws with a message for the options page when it is not one.
 */
export function normalizeServerUrl(input: string): string {
  const trimmed = input.trim();
  if (trimmed === '') return '';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error('Enter the server address as a full URL, for example https://sho.rt');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('The server URL must start with http:// or https://');
  // `url.search` and `url.hash` are '' for a bare `?` or `#`, which `href` still carries.
  if (/[?#]/.test(url.href))
    throw new Error('The server URL cannot have a query or fragment; enter only its base address.');
  // Browsers refuse to fetch a URL with credentials, so every request would look like a dead server.
  if (url.username || url.password)
    throw new Error('The server URL cannot contain a user name or password; enter only its base address.');
  return url.href.replace(/\/+$/, '');
}
