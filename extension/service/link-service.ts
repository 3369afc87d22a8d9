import { ApiError } from '../../client/api-errors.js';
import type { FetchLike } from '../../client/fetch-like.js';
import type { FetchHandler } from '../../core/handler.js';
import { codeKey } from '../../core/rules/code.js';
import { formatDateTime } from '../../ui/format-date.js';
import type { IdbLinkStore } from '../backend/idb-link-store.js';
import { localBase, openPageBase, routeToHandler } from '../backend/local-backend.js';
import type { History } from '../history/history.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { isHistoryFile, parseHistoryFile, toHistoryFile } from '../history/history-file.js';
import { type ImportReport, importHistory } from '../history/import-history.js';
import { language, t } from '../i18n.js';
import { importLinksLocally, importLinksToServer } from '../porting/import-links-file.js';
import { toLinksFile } from '../porting/links-file.js';
import { loadSettings, type Settings } from '../settings.js';
import { queueLocalLinks, rebind } from '../sync/push-pending.js';
import { queueChange } from '../sync/queued-changes.js';
import type { SyncScheduler } from '../sync/sync-scheduler.js';
import { recordKeyRefused } from '../sync/sync-status.js';
import type { BackgroundApi } from './background-api.js';
import { openLocalLink } from './open-local-link.js';
import { renewEntry } from './renew-link.js';
import { shortenLink } from './shorten-link.js';

export interface LinkServiceDeps {
  store: IdbLinkStore;
  history: History;
  /** The bundled backend: the core handler on `store`. */
  handle: FetchHandler;
  sync: SyncScheduler;
  settings?: () => Promise<Settings>;
  serverFetch?: FetchLike;
  /** How long the server may take to answer (`REQUEST_TIMEOUT_MS` when not given). */
  timeoutMs?: number;
  now?: () => number;
}

/**
 * The background's side of `BackgroundApi`: the one place links are made and recorded, whether the
 * popup, the context menu or the shortcut asked, so the three cannot drift apart.
 */
export function createLinkService(deps: LinkServiceDeps): BackgroundApi {
  const settingsOf = deps.settings ?? loadSettings;
  const now = deps.now ?? Date.now;
  const localFetch = routeToHandler(deps.handle, localBase());

  return {
    async shorten(request, { reuse = false } = {}) {
      const settings = await settingsOf();
      const input = { url: request.url, code: request.code, expire: request.expire ?? settings.defaultExpire };
      try {
        const entry = await shortenLink(
          input,
          {
            settings,
            history: deps.history,
            localFetch,
            localBase: localBase(),
            serverFetch: deps.serverFetch,
            timeoutMs: deps.timeoutMs,
            now,
          },
          reuse,
        );
        // A pending link waits for the push; with a key, a pull follows each push.
        if (entry.status === 'pending' || settings.apiKey) void deps.sync.run().catch(() => undefined);
        return entry;
      } catch (error) {
        // The popup says a refused key from this answer alone, and may close before any sync
        // runs: the options page must say it too.
        if (error instanceof ApiError && error.status === 401 && settings.serverUrl && settings.apiKey) {
          await recordKeyRefused(settings.serverUrl, settings.apiKey, error.message, now());
        }
        throw await withCodeFreeAt(error, settings, input.code ?? '');
      }
    },

    async listHistory(options) {
      return withLocalClicks(await deps.history.list(options));
    },

    listTags() {
      return deps.history.tags();
    },

    async deleteLink(id) {
      const entry = await deps.history.get(id);
      if (entry && (await actsOnServer(entry))) {
        // Deleted on the server for every device; queued (and shown so) while it cannot be reached.
        await deps.history.put(queueChange(entry, 'delete'));
        await deps.sync.run({ force: true });
        return;
      }
      await deps.history.remove(id);
      if (entry?.status === 'local') await deps.store.deleteByCodeKey(codeKey(entry.code));
    },

    async setDisabled(id, disabled) {
      const entry = await deps.history.get(id);
      if (!entry) throw new Error(t('errorLinkGone'));
      if (!(await actsOnServer(entry))) throw new Error(t('errorDisableNeedsKey'));
      await deps.history.put(queueChange(entry, disabled ? 'disable' : 'enable'));
      return deps.sync.run({ force: true });
    },

    async renewLink(id, expire) {
      const entry = await deps.history.get(id);
      if (!entry) throw new Error(t('errorLinkGone'));
      const settings = await settingsOf();
      const { serverFetch, timeoutMs } = deps;
      return renewEntry(entry, expire, { ...deps, settings, serverFetch, timeoutMs, now: now() });
    },

    async retryLink(id, { newCode = false } = {}) {
      const entry = await deps.history.get(id);
      if (!entry) throw new Error(t('errorLinkGone'));
      const { serverUrl } = await settingsOf();
      if (!serverUrl) throw new Error(t('errorRetryNeedsServer'));
      const base: HistoryEntry = newCode ? { ...entry, code: '', customCode: false, shortUrl: '' } : entry;
      // A link made for a server the user has since left goes to the one set now.
      await deps.history.put(rebind(base, serverUrl, now()));
      return deps.sync.run({ force: true });
    },

    sync({ force = false } = {}) {
      return deps.sync.run({ force });
    },

    async uploadLocalLinks() {
      const { serverUrl } = await settingsOf();
      if (!serverUrl) throw new Error(t('uploadNeedsServer'));
      const queued = await queueLocalLinks(deps.history, serverUrl, now());
      return { queued, ...(await deps.sync.run({ force: true })) };
    },

    async exportHistory() {
      return toHistoryFile(await deps.history.list(), now());
    },

    importHistory: importHistoryFile,

    async importFile(fileText) {
      if (isHistoryFile(fileText)) return { kind: 'history', report: await importHistoryFile(fileText) };
      const settings = await settingsOf();
      if (settings.serverUrl && !settings.apiKey) throw new Error(t('importNeedsKey'));
      if (settings.serverUrl) {
        const report = await importLinksToServer(fileText, {
          server: settings.serverUrl,
          apiKey: settings.apiKey,
          fetch: deps.serverFetch,
        });
        // The links are the key owner's now; the pull brings them into the history.
        if (report.created > 0) void deps.sync.run().catch(() => undefined);
        return { kind: 'links', report };
      }
      const report = await importLinksLocally(fileText, {
        store: deps.store,
        history: deps.history,
        now: now(),
        openPageBase: openPageBase(),
        defaultExpire: settings.defaultExpire,
      });
      return { kind: 'links', report };
    },

    async exportLinks(format) {
      return toLinksFile(await withLocalClicks(await deps.history.list()), format, now());
    },

    async openLocalLink(codeSegment) {
      return openLocalLink(deps.store, codeSegment, now());
    },
  };

  /** A Linklet history file's entries into the history (see `importHistory`); a sync if some were re-bound. */
  async function importHistoryFile(fileText: string): Promise<ImportReport> {
    const { serverUrl } = await settingsOf();
    const entries = parseHistoryFile(fileText);
    const report = await importHistory(entries, {
      history: deps.history,
      store: deps.store,
      now: now(),
      server: serverUrl,
      openPageBase: openPageBase(),
    });
    if (report.rebound > 0) void deps.sync.run().catch(() => undefined);
    return report;
  }

  /**
   * Local links with the clicks the bundled backend counted (the open page adds one per opening),
   * as synced ones carry the server's: both kinds show the same. A code another local link holds
   * (an imported clash) has none of its own to show.
   */
  async function withLocalClicks(entries: HistoryEntry[]): Promise<HistoryEntry[]> {
    return Promise.all(
      entries.map(async (entry) => {
        if (entry.status !== 'local') return entry;
        const link = await deps.store.findByCodeKey(codeKey(entry.code));
        return link?.originalUrl === entry.originalUrl ? { ...entry, clicks: link.clicks ?? 0 } : entry;
      }),
    );
  }

  /** A synced link on the configured server, with a key to change it there. */
  async function actsOnServer(entry: HistoryEntry): Promise<boolean> {
    const { serverUrl, apiKey } = await settingsOf();
    return entry.status === 'synced' && apiKey !== '' && entry.server === serverUrl;
  }

  /**
   * The v1 409 for a taken code does not say when the code frees up (only the legacy one does),
   * so when this browser knows the holder (the bundled backend's store, or a link made here on
   * the server) its expiry is added to the message.
   */
  async function withCodeFreeAt(error: unknown, settings: Settings, code: string): Promise<unknown> {
    if (!(error instanceof ApiError && error.status === 409 && code)) return error;
    const key = codeKey(code);
    const freeAt = settings.serverUrl
      ? (await deps.history.list()).find(
          (entry) => entry.server === settings.serverUrl && entry.status === 'synced' && codeKey(entry.code) === key,
        )?.expiresAt
      : (await deps.store.findByCodeKey(key))?.expiresAt;
    if (!freeAt || freeAt <= now()) return error;
    return new ApiError(error.status, `${error.message} ${t('codeFreeAfter', [formatDateTime(freeAt, language())])}`);
  }
}
