import { ApiError } from '../../client/api-errors.js';
import type { ExportFormat } from '../../core/management/porting/export-links.js';
import type { ExpireDuration } from '../../core/rules/expiry.js';
import { BUILD_ID } from '../build-id.js';
import type { HistoryQuery } from '../history/history.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { ImportReport } from '../history/import-history.js';
import { t } from '../i18n.js';
import type { LinksImportReport } from '../porting/import-links-file.js';
import type { SyncReport } from '../sync/push-pending.js';
import type { LocalLinkOpening } from './open-local-link.js';
import { unlessLost } from './unless-lost.js';

/** What importing a file did: a Linklet history file, or an export of links (Linklet's or another shortener's). */
export type FileImportReport = { kind: 'history'; report: ImportReport } | { kind: 'links'; report: LinksImportReport };

/** What a page asks to shorten; `expire` defaults to the user's default expiry. */
export interface ShortenRequest {
  url: string;
  /** Absent or '' lets the backend generate one. */
  code?: string;
  expire?: ExpireDuration;
}

/**
 * Everything the extension's pages ask of the background, which alone owns the links, the
 * history and the sync (as WXT's proxy-service example splits them). Pages hold a typed client
 * (`createBackgroundClient`); the background answers with the implementation (`createLinkService`).
 * Arguments and results are plain data: they are structured-cloned on the way.
 */
export interface BackgroundApi {
  /**
   * Makes a link and records it (see `shortenLink`). With `reuse`, an active link already made
   * for the same URL is returned instead: opening the popup twice on one page gives one link.
   */
  shorten(request: ShortenRequest, options?: { reuse?: boolean }): Promise<HistoryEntry>;
  /** Newest first; `query` matches the short URL, code, original URL, title or a tag; `tag` narrows to one tag. */
  listHistory(options?: HistoryQuery): Promise<HistoryEntry[]>;
  /** The tags the history's links carry, to filter by. */
  listTags(): Promise<string[]>;
  /**
   * Removes a link from the history (and a local link from the bundled backend); with an API key,
   * deletes a synced link on the server (queued while it cannot be reached).
   */
  deleteLink(id: string): Promise<void>;
  /** Disables or enables a synced link on the server (needs an API key; queued while unreachable). */
  setDisabled(id: string, disabled: boolean): Promise<SyncReport>;
  /** Renews a local or synced link (expired ones too) for `expire` from now; answers the entry as it is now. */
  renewLink(id: string, expire: ExpireDuration): Promise<HistoryEntry>;
  /** Pushes a waiting, conflicting or refused link again, with its code or (`newCode`) a fresh one. */
  retryLink(id: string, options?: { newCode?: boolean }): Promise<SyncReport>;
  /** Pushes pending links now: every one with `force`, due ones otherwise. */
  sync(options?: { force?: boolean }): Promise<SyncReport>;
  /** Queues every active local link for the configured server and pushes them. */
  uploadLocalLinks(): Promise<SyncReport & { queued: number }>;
  /** The whole history as an export file's text (see `toHistoryFile`). */
  exportHistory(): Promise<string>;
  /** Reads an export file's text and adds its links (see `importHistory`); rejects with what is wrong. */
  importHistory(fileText: string): Promise<ImportReport>;
  /**
   * Imports any file the options accept: a history file as `importHistory` does; an export of
   * links (Linklet, Shlink, Dub, Sink, YOURLS, Kutt) into the server with an API key, else into
   * the bundled backend. Rejects with what is wrong with the file.
   */
  importFile(fileText: string): Promise<FileImportReport>;
  /** The history's links as the server exports them (Linklet CSV or JSON; see `toLinksFile`). */
  exportLinks(format: ExportFormat): Promise<string>;
  /**
   * Resolves a local short link's code (the open page's hash) and counts the opening as its
   * click (see `openLocalLink`): the open page writes nothing itself, like every other page.
   */
  openLocalLink(codeSegment: string): Promise<LocalLinkOpening>;
}

const METHODS = [
  'shorten',
  'listHistory',
  'listTags',
  'deleteLink',
  'setDisabled',
  'renewLink',
  'retryLink',
  'sync',
  'uploadLocalLinks',
  'exportHistory',
  'importHistory',
  'importFile',
  'exportLinks',
  'openLocalLink',
] as const satisfies readonly (keyof BackgroundApi)[];
type Method = (typeof METHODS)[number];

/** A call from a page. */
export interface ApiCall {
  type: 'linklet:call';
  method: Method;
  args: unknown[];
  /** Names the call for `RunningQuery` (pages of builds before it sent none). */
  id?: string;
}

/** Asks the background whether it still runs the call `id`; it answers `{ running }`. */
export interface RunningQuery {
  type: 'linklet:running';
  id: string;
}

/** How a page sends a message to the background (`browser.runtime.sendMessage`). */
type SendMessage = (message: ApiCall | BuildQuery | RunningQuery) => Promise<unknown>;

/** Asks the background which build it is; every build that names its build in replies answers it. */
export interface BuildQuery {
  type: 'linklet:build';
}
const BUILD_QUERY: BuildQuery = { type: 'linklet:build' };

/**
 * A reply names its build (and, from 0.2.0 on, its version). No reply at all is either an earlier
 * build that does not know the call, or this build's background stopped mid-answer (Chromium stops
 * workers): asking which build it is tells the two apart, so a stopped worker never restarts the
 * extension. Resolves what the background of another build says it is, or undefined for this build's.
 */
async function otherBuild(send: SendMessage, reply: ApiReply | undefined): Promise<BuiltAs | undefined> {
  const answer = reply ?? (await send(BUILD_QUERY).catch(() => ({ build: BUILD_ID })));
  const { build, version } = (answer ?? {}) as { build?: unknown; version?: unknown };
  if (build === BUILD_ID) return undefined;
  return typeof version === 'string' ? { version } : {};
}

/** What a background of another build says of itself: its manifest's version, absent before 0.2.0. */
export interface BuiltAs {
  version?: string;
}

/**
 * The background's answer: the value, or the error's message (and the API status behind it), with
 * the build it came from (absent before builds said so).
 */
export type ApiReply = ({ ok: true; value: unknown } | { ok: false; message: string; status?: number }) & {
  build?: string;
  version?: string;
};

export interface BackgroundClientOptions {
  /**
   * Called when the background is not of this page's build (it does not say, or says another),
   * with what it says of itself: resolves true when it restarts the extension, which closes this
   * page, so the call ends there.
   */
  onOtherBuild?: (background: BuiltAs) => Promise<boolean>;
}

/**
 * The page side: each method becomes one runtime message. An error comes back as an `ApiError`
 * when the backend gave a status (so `status` still tells a 409 from a 400), else as an `Error`;
 * a background that stopped before it answered is told as such, so the user knows to retry.
 */
export function createBackgroundClient(
  send: SendMessage,
  { onOtherBuild = async () => false }: BackgroundClientOptions = {},
): BackgroundApi {
  const call = async (method: Method, args: unknown[]) => {
    const id = crypto.randomUUID();
    const isRunning = async () =>
      ((await send({ type: 'linklet:running', id })) as { running?: boolean } | undefined)?.running;
    let reply: ApiReply | undefined;
    try {
      reply = (await unlessLost(
        send({ type: 'linklet:call', method, args, id }),
        isRunning,
        () => new Error('The background runs no such call: the message was lost.'),
      )) as ApiReply | undefined;
    } catch (error) {
      throw new Error(t('errorBackgroundGone'), { cause: error });
    }
    // An earlier build's background answers nothing to calls it does not know, or its own way.
    const other = await otherBuild(send, reply);
    if (other && (await onOtherBuild(other))) throw new Error(t('errorBackgroundUpdating'));
    if (!reply) throw new Error(t('errorBackgroundGone'));
    if (reply.ok) return reply.value;
    throw reply.status === undefined ? new Error(reply.message) : new ApiError(reply.status, reply.message);
  };
  return Object.fromEntries(
    METHODS.map((method) => [method, (...args: unknown[]) => call(method, args)]),
  ) as unknown as BackgroundApi;
}

export function isApiCall(message: unknown): message is ApiCall {
  const call = message as Partial<ApiCall> | null;
  return (
    typeof call === 'object' &&
    call !== null &&
    call.type === 'linklet:call' &&
    (METHODS as readonly string[]).includes(call.method as string) &&
    Array.isArray(call.args) &&
    (call.id === undefined || typeof call.id === 'string')
  );
}
