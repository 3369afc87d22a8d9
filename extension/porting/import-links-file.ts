import { IMPORT_TIMEOUT_MS } from '../../client/call-linklet.js';
import {
  IMPORT_STATUSES,
  type ImportContext,
  type ImportResult,
  type ImportStatus,
  importLinks,
} from '../../core/management/porting/import-links.js';
import type { ImportFormat } from '../../core/management/porting/import-row.js';
import { readImportFile } from '../../core/management/porting/read-import-file.js';
import type { ExpireDuration } from '../../core/rules/expiry.js';
import { DEFAULT_MAX_URL_LENGTH } from '../../core/rules/url.js';
import type { Link } from '../../core/store/link-store.js';
import type { IdbLinkStore } from '../backend/idb-link-store.js';
import type { History } from '../history/history.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { callServer, type ServerAccess } from '../server/server-client.js';

/** What an import of another shortener's (or a Linklet server's) export came to, row by row counted. */
export type LinksImportReport = Record<ImportStatus, number> & {
  /** Where the links went: the companion server (they arrive with the next pull) or this browser. */
  target: 'server' | 'local';
  format: ImportFormat;
  /** The first rows neither created nor already there, each with the API's reason (said in words by `importRowReason`). */
  problems: ImportResult[];
};

/** How many refused rows a report carries: the options page lists them one per line, then says how many more. */
export const MAX_PROBLEMS = 50;

/** The rows someone must look at: not created, and not already there. */
function problemsOf(results: readonly ImportResult[]): ImportResult[] {
  return results.filter((row) => row.status !== 'created' && row.status !== 'unchanged').slice(0, MAX_PROBLEMS);
}

export interface LocalImportDeps {
  store: Pick<IdbLinkStore, 'create' | 'findByCodeKey' | 'setDisabled'>;
  history: History;
  now: number;
  /** Where this browser's local links open (`openPageBase()`). */
  openPageBase: string;
  /** The expiry of rows that give none, and the label their history entries carry. */
  defaultExpire: ExpireDuration;
  newId?: () => string;
}

/**
 * Imports the file into the bundled backend: the server's own reader and rules (`readImportFile`,
 * `importLinks`), so a file imports the same here as on a server, each row keeping its code.
 * Each link created is recorded in the history as a local link. The bundled backend has no
 * owners, so every local link counts as the user's (a code held for the same URL is `unchanged`).
 */
export async function importLinksLocally(fileText: string, deps: LocalImportDeps): Promise<LinksImportReport> {
  const file = await readImportFile(new TextEncoder().encode(fileText));
  const created = new Map<string, Link>();
  const store: ImportContext['store'] = {
    async create(link, now) {
      const result = await deps.store.create(link, now);
      if (result.created) created.set(link.codeKey, result.link);
      return result;
    },
    findByCodeKey: (codeKey) => deps.store.findByCodeKey(codeKey),
    // A row disabled where it came from stays disabled: its short URL answers 410 here too.
    async updateLink(codeKey, _scope, patch) {
      const link = created.get(codeKey);
      if (!link) return { updated: false, reason: 'not_found' };
      if (patch.disabled !== undefined) {
        link.disabled = patch.disabled;
        await deps.store.setDisabled(codeKey, patch.disabled);
      }
      return { updated: true, link };
    },
    ping: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  const report = await importLinks(file.rows, {
    store,
    scope: { all: true },
    ownerId: undefined,
    now: deps.now,
    urlRules: { maxLength: DEFAULT_MAX_URL_LENGTH, ownHosts: [] },
    defaultDuration: deps.defaultExpire,
  });
  const newId = deps.newId ?? (() => crypto.randomUUID());
  for (const link of created.values()) await deps.history.put(localEntry(link, deps, newId()));
  return { target: 'local', format: file.format, ...countsOf(report), problems: problemsOf(report.results) };
}

function localEntry(link: Link, deps: LocalImportDeps, id: string): HistoryEntry {
  return {
    id,
    code: link.code,
    customCode: true,
    originalUrl: link.originalUrl,
    shortUrl: `${deps.openPageBase}/${link.code}/`,
    server: null,
    status: 'local',
    expire: deps.defaultExpire,
    createdAt: link.createdAt,
    expiresAt: link.expiresAt,
    attempts: 0,
    ...(link.disabled && { disabled: true }),
  };
}

function countsOf(report: Record<ImportStatus, number>): Record<ImportStatus, number> {
  return Object.fromEntries(IMPORT_STATUSES.map((status) => [status, report[status]])) as Record<ImportStatus, number>;
}

/**
 * Sends the file as it is to the server's `POST /api/v1/links/import` with the key, so the links
 * become the key owner's (and every device's, with the next pull). The server recognises the
 * format and applies the rules; its refusal (400 naming the formats, 401, 413) rejects with its
 * message.
 */
export async function importLinksToServer(fileText: string, access: ServerAccess): Promise<LinksImportReport> {
  const isJson = /^\s*[[{]/.test(fileText.replace(/^\ufeff/, ''));
  const reply = await callServer(
    { ...access, timeoutMs: access.timeoutMs ?? IMPORT_TIMEOUT_MS },
    'api/v1/links/import',
    {
      method: 'POST',
      raw: { text: fileText, contentType: isJson ? 'application/json' : 'text/csv; charset=utf-8' },
    },
  );
  const data = (reply ?? {}) as Partial<Record<ImportStatus | 'format' | 'results', unknown>>;
  const count = (status: ImportStatus) => {
    const value = data[status];
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
  };
  return {
    target: 'server',
    format: typeof data.format === 'string' ? (data.format as ImportFormat) : 'linklet-csv',
    ...(Object.fromEntries(IMPORT_STATUSES.map((status) => [status, count(status)])) as Record<ImportStatus, number>),
    problems: problemsOf(Array.isArray(data.results) ? data.results.flatMap(serverRow) : []),
  };
}

/** A row of the server's answer, kept only as the shape the page reads (the server is not trusted to send it). */
function serverRow(item: unknown): ImportResult[] {
  const { row, code, status, message } = (typeof item === 'object' && item !== null ? item : {}) as Record<
    string,
    unknown
  >;
  if (typeof status !== 'string' || !(IMPORT_STATUSES as readonly string[]).includes(status)) return [];
  return [
    {
      row: typeof row === 'number' && Number.isSafeInteger(row) ? row : 0,
      code: typeof code === 'string' ? code.slice(0, 100) : '',
      status: status as ImportStatus,
      message: typeof message === 'string' ? message.slice(0, 500) : '',
    },
  ];
}
