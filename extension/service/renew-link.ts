import type { FetchLike } from '../../client/fetch-like.js';
import { linkPath } from '../../client/link-path.js';
import { codeKey } from '../../core/rules/code.js';
import { type ExpireDuration, expiryFor } from '../../core/rules/expiry.js';
import type { IdbLinkStore } from '../backend/idb-link-store.js';
import type { History } from '../history/history.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { t } from '../i18n.js';
import { callServer } from '../server/server-client.js';
import type { Settings } from '../settings.js';

export interface RenewDeps {
  store: Pick<IdbLinkStore, 'renew'>;
  history: Pick<History, 'put'>;
  settings: Settings;
  serverFetch?: FetchLike;
  timeoutMs?: number;
  now: number;
}

/**
 * Renews a link for `expire` from now, expired ones too, where the link lives: a local link in
 * the bundled backend's store, a synced one on the server (`PATCH` with `expire_duration`, with
 * the key; the server says the new expiry). The history entry then shows the new expiry. Not
 * queued while the server is unreachable: a renewal is asked for now, and the error says so.
 */
export async function renewEntry(entry: HistoryEntry, expire: ExpireDuration, deps: RenewDeps): Promise<HistoryEntry> {
  const { settings } = deps;
  if (entry.status === 'local') {
    const expiresAt = expiryFor(expire, deps.now);
    await deps.store.renew(codeKey(entry.code), expiresAt);
    const renewed = { ...entry, expire, expiresAt };
    await deps.history.put(renewed);
    return renewed;
  }
  if (entry.status !== 'synced' || !settings.apiKey || entry.server !== settings.serverUrl) {
    throw new Error(t('errorRenewNeedsKey'));
  }
  const data = (await callServer(
    { server: settings.serverUrl, apiKey: settings.apiKey, fetch: deps.serverFetch, timeoutMs: deps.timeoutMs },
    linkPath(entry.code),
    { method: 'PATCH', body: { expire_duration: expire } },
  )) as { expiration_date?: unknown; status?: unknown } | null;
  const expiresAt = typeof data?.expiration_date === 'string' ? Date.parse(data.expiration_date) : Number.NaN;
  const renewed: HistoryEntry = {
    ...entry,
    expire,
    expiresAt: Number.isNaN(expiresAt) ? expiryFor(expire, deps.now) : expiresAt,
    disabled: data?.status === 'disabled',
  };
  await deps.history.put(renewed);
  return renewed;
}
