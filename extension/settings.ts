import { storage } from 'wxt/utils/storage';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS, type ExpireDuration } from '../core/rules/expiry.js';
import { trimTrailingSlashes } from '../core/rules/url.js';

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

/**
 * The settings as stored by this or any earlier release: a field an earlier release did not have
 * (`apiKey` before keys) or one that does not hold its type takes its default, so an update never
 * leaves a page with a setting it cannot use.
 */
export async function loadSettings(): Promise<Settings> {
  const stored = ((await settingsItem.getValue()) ?? {}) as Partial<Record<keyof Settings, unknown>>;
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  return {
    serverUrl: text(stored.serverUrl, DEFAULT_SETTINGS.serverUrl),
    apiKey: text(stored.apiKey, DEFAULT_SETTINGS.apiKey),
    defaultExpire: EXPIRE_DURATIONS.includes(stored.defaultExpire as ExpireDuration)
      ? (stored.defaultExpire as ExpireDuration)
      : DEFAULT_SETTINGS.defaultExpire,
    autoCopy: typeof stored.autoCopy === 'boolean' ? stored.autoCopy : DEFAULT_SETTINGS.autoCopy,
  };
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
  return trimTrailingSlashes(url.href);
}
