import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS, type ExpireDuration } from '../../core/rules/expiry.js';
import type { HistoryEntry, HistoryStatus } from './history-entry.js';

const STATUSES: readonly HistoryStatus[] = ['local', 'synced', 'pending', 'conflict', 'failed'];

/** A stored history record as the history reads it: the entry, or why it cannot be one. */
export type ReadRecord = { entry: HistoryEntry } | { reason: string };

/**
 * Reads a history record written by this or any earlier release. Every release so far only added
 * optional fields, so an older record lacks them and is read as is; fields a list needs and that
 * a record may lack or hold damaged (`attempts`, `customCode`, `expire`, `server`) get the value
 * the release that wrote it meant. A date that is missing or damaged is kept as NaN: the screens
 * say it is unknown, so the link still lists and opens. A record that cannot be shown at all (no
 * id, code or URL, or an unknown status) gets a reason instead, so the caller skips it and lists
 * the rest.
 */
export function readHistoryRecord(raw: unknown): ReadRecord {
  if (typeof raw !== 'object' || raw === null) return { reason: 'it is not an object' };
  const record = raw as Record<string, unknown>;
  for (const field of ['id', 'code', 'originalUrl', 'shortUrl'] as const) {
    if (typeof record[field] !== 'string') return { reason: `its ${field} is not text` };
  }
  if (!STATUSES.includes(record.status as HistoryStatus)) return { reason: `its status is ${String(record.status)}` };
  const entry = {
    ...record,
    customCode: record.customCode === true,
    server: typeof record.server === 'string' && record.server !== '' ? record.server : null,
    expire: EXPIRE_DURATIONS.includes(record.expire as ExpireDuration) ? record.expire : DEFAULT_EXPIRE_DURATION,
    attempts: Number.isInteger(record.attempts) ? record.attempts : 0,
    createdAt: timeOrNaN(record.createdAt),
    expiresAt: timeOrNaN(record.expiresAt),
  } as HistoryEntry;
  return { entry };
}

/** The records that read as entries; each one skipped is logged with its reason, never thrown. */
export function readHistoryRecords(
  raws: readonly unknown[],
  log: (message: string) => void = (message) => console.warn(message),
): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const raw of raws) {
    const read = readHistoryRecord(raw);
    if ('entry' in read) entries.push(read.entry);
    else log(`Linklet history: a record (id ${describeId(raw)}) is skipped: ${read.reason}.`);
  }
  return entries;
}

function describeId(raw: unknown): string {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? JSON.stringify(id.slice(0, 64)) : 'unknown';
}

const timeOrNaN = (value: unknown): number => (typeof value === 'number' ? value : Number.NaN);

/** Newest first; a record whose date is unknown lists after every dated one. */
export const newestFirst = (a: HistoryEntry, b: HistoryEntry): number => sortableTime(b) - sortableTime(a);

/** Oldest first (the order pending links are sent in); an unknown date goes first. */
export const oldestFirst = (a: HistoryEntry, b: HistoryEntry): number => sortableTime(a) - sortableTime(b);

const sortableTime = (entry: HistoryEntry): number =>
  Number.isFinite(entry.createdAt) ? entry.createdAt : Number.MIN_SAFE_INTEGER;
