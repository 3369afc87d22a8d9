import { csvRecords } from '../../core/management/porting/csv-cell.js';
import { EXPORT_CSV_COLUMNS, EXPORT_VERSION, type ExportFormat } from '../../core/management/porting/export-links.js';
import { formatIsoDate } from '../../core/rules/dates.js';
import { type LinkStatus, statusOf } from '../../core/store/link-management-store.js';
import type { HistoryEntry } from '../history/history-entry.js';

/** One link as the server's export writes it (`code,short_url,original_url,…,status,clicks`). */
type ExportedLink = Record<(typeof EXPORT_CSV_COLUMNS)[number], string | number | string[] | null> & {
  status: LinkStatus;
};

const CRLF = '\r\n';
// A byte order mark, as the server writes one: spreadsheets then read the Hangul as UTF-8.
const BOM = '\ufeff';

/** The history's links that exist somewhere: local ones and those the server made. */
const isExportable = (entry: HistoryEntry) => entry.status === 'local' || entry.status === 'synced';

function toExportedLink(entry: HistoryEntry, now: number): ExportedLink {
  return {
    code: entry.code,
    short_url: entry.shortUrl,
    original_url: entry.originalUrl,
    created_at: formatIsoDate(entry.createdAt),
    expiration_date: formatIsoDate(entry.expiresAt),
    // The core's rule (expiry first, then disabled), so the file says what the server's would.
    status: statusOf(
      {
        code: entry.code,
        codeKey: entry.code,
        originalUrl: entry.originalUrl,
        createdAt: entry.createdAt,
        expiresAt: entry.expiresAt,
        disabled: entry.disabled === true,
      },
      now,
    ),
    clicks: entry.clicks ?? 0,
    title: entry.title ?? null,
    tags: entry.tags ?? [],
  };
}

/**
 * The history's links in the server's export shape (`GET /api/v1/links/export`), so one file
 * moves links between this browser, a Linklet server and the other shorteners that read CSV.
 * Links still waiting for the server (pending, conflict, failed) are not links anywhere yet and
 * are left out; the history file (`toHistoryFile`) keeps those.
 */
export function toLinksFile(entries: HistoryEntry[], format: ExportFormat, now: number): string {
  const links = entries.filter(isExportable).map((entry) => toExportedLink(entry, now));
  if (format === 'json') {
    return `${JSON.stringify({ version: EXPORT_VERSION, exported_at: formatIsoDate(now), links }, null, 2)}${CRLF}`;
  }
  // Tags as one comma-separated cell, no title as empty: as the server's CSV writes them.
  const cell = (value: ExportedLink[keyof ExportedLink]) => (Array.isArray(value) ? value.join(',') : (value ?? ''));
  const rows = [EXPORT_CSV_COLUMNS, ...links.map((link) => EXPORT_CSV_COLUMNS.map((column) => cell(link[column])))];
  // The server's writer: cells that a spreadsheet would run as formulas are neutralised alike.
  return `${BOM}${csvRecords(rows)}`;
}
